import { getAsset, type Asset } from "../mam/mam-api";
import { kindOf } from "../mam/Thumb";
import { variantsOf, versionNumbers } from "./asset-actions-api";
import { type CommentsOut, listComments } from "./review-api";
import { chooseView, shownMime, type Viewing } from "./viewer-api";

/** The compare screen's data (docs/decisions/061-review-and-approval.md, «Compare»): two versions of one asset. */

export type Rate = NonNullable<CommentsOut["rate"]>;

export interface CompareSide extends Viewing {
  version: number;
  /** How the shown variant is shown: video, audio, image, pdf, text…; null when nothing can be shown. */
  kind: string | null;
  /** The version's frame rate (its proxy's), for frame-accurate sync; null while unknown. */
  rate: Rate | null;
  /** The asset's type, for a variant that names none. */
  mime: string;
}

export interface CompareData {
  groupId: string;
  asset: Asset;
  /** Version numbers, newest first. */
  versions: number[];
  /** Left and right; null when the asset has fewer than two versions. */
  sides: [CompareSide, CompareSide] | null;
}

/** The address's a= and b=: version numbers the asset has; by default the one before the latest against the latest. */
export function comparedVersions(url: URL, versions: number[]): [number, number] | null {
  if (versions.length < 2) return null;
  const pick = (name: string, fallback: number) => {
    const n = Number(url.searchParams.get(name));
    return versions.includes(n) ? n : fallback;
  };
  return [pick("a", versions[1]), pick("b", versions[0])];
}

async function sideOf(asset: Asset, version: number, signal: AbortSignal): Promise<CompareSide> {
  const viewing = await chooseView(asset, await variantsOf(asset.asset_id, version, signal), signal);
  const kind = viewing.shown ? kindOf("asset", shownMime(viewing.shown, asset.mimetype)) : viewing.preview ? "image" : null;
  const timed = kind === "video" || kind === "audio";
  // The version's rate as the review API knows it (the proxy's ffprobe r_frame_rate); without it sync is by seconds.
  const rate = timed
    ? await listComments(asset.asset_id, version, signal).then(
        (c) => c.rate,
        (error) => {
          if (!signal.aborted) console.error(error);
          return null;
        },
      )
    : null;
  return { ...viewing, version, kind, rate, mime: asset.mimetype };
}

/** Both versions' play links with the asset; an unreadable asset throws (the route's 404), as in the viewer. */
export async function loadCompare(groupId: string, assetId: string, url: URL, signal: AbortSignal): Promise<CompareData> {
  const [asset, versions] = await Promise.all([getAsset(assetId, signal), versionNumbers(assetId, signal)]);
  const pair = comparedVersions(url, versions);
  const sides = pair ? ((await Promise.all(pair.map((v) => sideOf(asset, v, signal)))) as [CompareSide, CompareSide]) : null;
  return { groupId, asset, versions, sides };
}

/** What the viewer's «Сравнить» sets against the version shown: the one before it, else (the oldest shown) the next. */
export function compareWith(versions: number[], shown: number | null): number | null {
  const i = shown === null ? -1 : versions.indexOf(shown);
  if (i < 0) return versions[1] ?? null;
  return versions[i + 1] ?? versions[i - 1] ?? null;
}

/** The compare screen's address for a viewer at /mam/{group}/asset/{id}. */
export const comparePath = (groupId: string, assetId: string, a?: number | null, b?: number | null) => {
  const q = new URLSearchParams();
  if (a) q.set("a", String(a));
  if (b) q.set("b", String(b));
  const search = q.toString();
  return `/mam/${groupId}/asset/${assetId}/compare${search ? `?${search}` : ""}`;
};
