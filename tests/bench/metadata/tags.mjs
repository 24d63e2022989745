import { timeTags } from "../metadata-tags.mjs";

/** Tag search over the 50,000 tags tests/bench/metadata.mjs seeds: list-by-filter prefix (aim p95 < 10 ms). */
export default async function tags({ url, bearer, file }) {
  await timeTags({ url, bearer, file });
}
