/**
 * Look-alikes and exact duplicates at scale (docs/decisions/058-duplicates-and-look-alikes.md): BENCH_FINGERPRINTS
 * (default 100,000) image assets, each with the rows the transcoder's metadata task writes (content_hashes,
 * perceptual_hashes with its bands), written straight into the local D1 SQLite file before the Worker starts, as
 * tests/bench/search.mjs seeds. Most pictures are unrelated (random 64-bit dHashes); one in ten belongs to a family of
 * copies (a resize, a recompression: a few bits off the family's first, 0–12) and one in fifty shares its bytes with
 * another asset. Then, through the local Worker as a user with read on the group (the access filter is in every
 * figure): `POST /api/search/similar` within the index's radius and beyond it (a scan), with its recall against an
 * exhaustive scan in Node for distance ≤ 8, and `GET /api/duplicates/of/{id}`. Prints figures; never fails on time.
 */
import { rmSync } from "node:fs";
import { createClient } from "@libsql/client";
import { tsImport } from "tsx/esm/api";
import { benchApi, benchUsers, migratedDataDir, ms, percentile, startServer } from "./server.mjs";

const { bands, hamming, INDEX_RADIUS } = await tsImport("../../functions/duplicates/hashes.ts", import.meta.url);

const COUNT = Number(process.env.BENCH_FINGERPRINTS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
/** Exact lookups are cheap, so they get more samples: a p95 over 200 answers of ~6 ms is its ten slowest, noise. */
const EXACT_RUNS = Number(process.env.BENCH_EXACT_RUNS ?? 1000);
const { dataDir, file } = migratedDataDir("mam-bench-similar-");
const db = createClient({ url: `file:${file}` });
const now = Math.floor(Date.now() / 1000);

let seed = 7;
const rand = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const hex = (digits) => Array.from({ length: digits }, () => Math.floor(rand() * 16).toString(16)).join("");
/** `hash` with `n` distinct random bits flipped: a copy at Hamming distance n. */
const flipped = (hash, n) => {
  let v = BigInt(`0x${hash}`);
  const bits = new Set();
  while (bits.size < n) bits.add(Math.floor(rand() * 64));
  for (const b of bits) v ^= 1n << BigInt(b);
  return v.toString(16).padStart(16, "0");
};

const uuid = (prefix, n) => `${prefix}${n.toString(16).padStart(12, "0")}`;
const groupId = "5ea7c500-0000-4000-8000-000000000000";
const assetId = (n) => uuid("5ea7c501-0000-4000-8000-", n);
const variantId = (n) => uuid("5ea7c502-0000-4000-8000-", n);

/** @type {string[]} */
const dhash = [];
/** @type {string[]} */
const sha = [];
for (let i = 0; i < COUNT; i++) {
  // Families of copies: every tenth asset starts one, the next four (some of them) are its copies.
  const family = i % 10;
  dhash.push(family >= 1 && family <= 4 && i >= 10 ? flipped(dhash[i - family], Math.floor(rand() * 13)) : hex(16));
  sha.push(i % 50 === 1 ? sha[i - 1] : hex(64));
}

const CHUNK = 5000;
/** Multi-row INSERTs of `rows` (arrays of values), 200 rows a statement. */
const inserts = (head, width, rows) => {
  const out = [];
  for (let i = 0; i < rows.length; i += 200) {
    const part = rows.slice(i, i + 200);
    out.push({ sql: `${head} VALUES ${part.map(() => `(${Array(width).fill("?").join(", ")})`).join(", ")}`, args: part.flat() });
  }
  return out;
};
const t0 = performance.now();
await db.execute(
  `INSERT INTO groups (group_id, group_name, name_key, parent_id, path, depth, ctime, mtime) VALUES ('${groupId}', 'Бенч похожих', 'бенч похожих', NULL, '/${groupId}/', 1, ${now}, ${now})`,
);
for (let start = 0; start < COUNT; start += CHUNK) {
  /** @type {Record<"assets" | "members" | "versions" | "variants" | "content" | "perceptual", unknown[][]>} */
  const rows = { assets: [], members: [], versions: [], variants: [], content: [], perceptual: [] };
  for (let i = start; i < Math.min(COUNT, start + CHUNK); i++) {
    const id = assetId(i);
    const ctime = now - i * 30;
    const size = 200_000 + (i % 1000) * 1000;
    rows.assets.push([id, `Снимок ${i}.jpg`, `bench-${i % 100}`, `bench-${i % 100}`, "image/jpeg", ctime, ctime, ctime]);
    rows.members.push([groupId, id, ctime, "asset"]);
    rows.versions.push([id, 1, ctime]);
    rows.variants.push([
      variantId(i),
      id,
      1,
      "bench",
      `bench/${i}`,
      `Снимок ${i}.jpg`,
      "image/jpeg",
      "initial",
      size,
      `Снимок ${i}.jpg`,
      "e",
      ctime,
    ]);
    rows.content.push([variantId(i), id, 1, sha[i], size, ctime]);
    const p = dHashPHash(i);
    for (const [kind, hash] of p) rows.perceptual.push([variantId(i), id, 1, kind, 0, hash, ...bands(hash)]);
  }
  await db.batch(
    [
      ...inserts("INSERT INTO assets (asset_id, name, owner, creator, mimetype, ctime, mtime, atime)", 8, rows.assets),
      ...inserts("INSERT INTO group_members (group_id, el_id, ctime, el_type)", 4, rows.members),
      ...inserts("INSERT INTO versions (asset_id, version, ctime)", 3, rows.versions),
      ...inserts(
        "INSERT INTO variants (variant_id, asset_id, version, storage_id, object_key, name, mime_type, variant_type, content_size, file_name, etag, ctime)",
        12,
        rows.variants,
      ),
      ...inserts("INSERT INTO content_hashes (variant_id, asset_id, version, sha256, size, ctime)", 6, rows.content),
      ...inserts("INSERT INTO perceptual_hashes (variant_id, asset_id, version, kind, seq, hash, b0, b1, b2)", 9, rows.perceptual),
    ],
    "write",
  );
}
/** An image's rows as the transcoder reports them: its dHash (ranked on) and a pHash (stored, not ranked on). */
function dHashPHash(i) {
  return [
    ["dhash", dhash[i]],
    ["phash", hex(16)],
  ];
}
// The seed wrote no search index: what the triggers marked for it is left out (the bench measures no search).
await db.batch(["DELETE FROM search_dirty"], "write");
await db.execute("ANALYZE");
await db.execute("PRAGMA wal_checkpoint(TRUNCATE)");
db.close();
console.log(`Seeded ${COUNT} image assets with their fingerprints and SHA-256: ${((performance.now() - t0) / 1000).toFixed(1)} s`);

/** The exhaustive answer: every other asset within `radius` of asset `i`, as ids. */
const exhaustive = (i, radius) => {
  const out = [];
  for (let k = 0; k < COUNT; k++) if (k !== i && hamming(dhash[i], dhash[k]) <= radius) out.push(assetId(k));
  return out;
};

const server = await startServer({ dataDir });
let failed = false;
try {
  const api = benchApi(server.url);
  // The local runtime now and then resets a kept-alive socket: such a request is sent again.
  const again =
    (fn) =>
    (...args) =>
      fn(...args).catch((error) => (error instanceof TypeError ? fn(...args) : Promise.reject(error)));
  const call = again(api.call);
  const post = again(api.post);
  const { bearer } = await benchUsers(post, groupId);
  // Queries: half from families of copies (they have neighbours), half unrelated pictures (they have none).
  const queryList = (n) =>
    Array.from({ length: n }, (_, k) => {
      const base = Math.floor(rand() * (COUNT / 10)) * 10;
      return k % 2 ? base + Math.floor(rand() * 5) : base + 5 + Math.floor(rand() * 5);
    });
  const queries = queryList(RUNS);
  const exactQueries = queryList(EXACT_RUNS);
  /** @param {string} label @param {(i: number) => Promise<unknown>} fn */
  const time = async (label, fn, list = queries) => {
    for (const i of list.slice(0, 20)) await fn(i); // warm-up: the isolate compiles the route on its first calls
    const times = [];
    const answers = [];
    for (const i of list) {
      const t = performance.now();
      answers.push(await fn(i));
      times.push(performance.now() - t);
    }
    console.log(`${label.padEnd(62)} p50 ${ms(percentile(times, 50))}  p95 ${ms(percentile(times, 95))}  (${list.length} calls)`);
    return answers;
  };

  /** The answers within `radius` against the exhaustive scan's: recall, and anything answered beyond it. */
  const recall = (answers, radius) => {
    let expected = 0;
    let found = 0;
    let extra = 0;
    queries.forEach((i, k) => {
      const truth = new Set(exhaustive(i, radius));
      const got = new Set(answers[k].map((h) => h.el_id));
      expected += truth.size;
      found += [...truth].filter((id) => got.has(id)).length;
      extra += [...got].filter((id) => !truth.has(id)).length;
    });
    console.log(
      `  recall against an exhaustive scan, distance ≤ ${radius}: ${((found / Math.max(1, expected)) * 100).toFixed(1)} % (${found} of ${expected} neighbours over ${queries.length} queries; ${extra} answered beyond ${radius})`,
    );
  };
  // The floor: what any authenticated call costs here (the Worker, its auth, one D1 round trip), to read the rest by.
  await time("floor: GET /api/auth/whoami", () => call("/api/auth/whoami", bearer), exactQueries);
  const similar = (max_distance, take) => (i) => post("/api/search/similar", bearer, { like: assetId(i), max_distance, take });
  recall(await time("similar, max_distance 8 (band index, 718 probes)", similar(8, 100)), 8);
  recall(await time("similar, max_distance 10 (the default; band index)", similar(10, 100)), 10);
  recall(await time(`similar, max_distance ${INDEX_RADIUS} (band index, 4,918 probes)`, similar(INDEX_RADIUS, 100)), INDEX_RADIUS);
  await time(`similar, max_distance ${INDEX_RADIUS + 5}, take 20 (beyond the index: a scan)`, similar(INDEX_RADIUS + 5, 20));
  const dups = /** @type {{ items: unknown[] }[]} */ (
    await time("exact duplicates: GET /api/duplicates/of/{id}", (i) => call(`/api/duplicates/of/${assetId(i)}`, bearer), exactQueries)
  );
  const withCopy = exactQueries.filter((i, k) => i % 50 <= 1 && dups[k].items.length === 1).length;
  console.log(`  (${withCopy} of ${exactQueries.filter((i) => i % 50 <= 1).length} queries with a same-bytes copy found it)`);
} catch (err) {
  failed = true;
  console.error(err);
} finally {
  await server.stop();
  if (process.env.BENCH_KEEP) console.log(`kept: ${file}`);
  else rmSync(dataDir, { recursive: true, force: true });
}
if (failed) process.exit(1);
