/**
 * 64-bit perceptual hashes as 16 hex digits (docs/decisions/058-duplicates-and-look-alikes.md): Hamming distance,
 * and the bands of the multi-index. The stored index cuts a hash into three bands (21, 21 and 22 bits, columns
 * b0…b2). Two hashes within distance d differ in at most ⌊d/3⌋ bits in at least one band (pigeonhole: three bands
 * each ⌊d/3⌋ + 1 apart would make 3⌊d/3⌋ + 3 > d), so looking up every band value within ⌊d/3⌋ of the query's finds
 * every hash within d. Wide bands keep the candidates few (a band value is shared by one hash in two million),
 * the probes grow with the radius: up to 11 they stay a few thousand, beyond it the search scans.
 */

export const HASH_RE = /^[0-9a-f]{16}$/;
/** Widths of the stored bands, from the hash's top bit down. */
export const BAND_WIDTHS = [21, 21, 22] as const;
/** The largest distance the band lookup answers (probing 3 bits around each band); beyond it the search scans. */
export const INDEX_RADIUS = 11;

const pop32 = (x: number) => {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
};

export function hamming(a: string, b: string): number {
  return (
    pop32((parseInt(a.slice(0, 8), 16) ^ parseInt(b.slice(0, 8), 16)) >>> 0) +
    pop32((parseInt(a.slice(8), 16) ^ parseInt(b.slice(8), 16)) >>> 0)
  );
}

/** `hash` cut into bits of the given widths, top first. */
function split(hash: string, widths: readonly number[]): number[] {
  const v = BigInt(`0x${hash}`);
  let shift = 64;
  return widths.map((w) => {
    shift -= w;
    return Number((v >> BigInt(shift)) & ((1n << BigInt(w)) - 1n));
  });
}

/** The stored bands b0…b2 of a hash. */
export const bands = (hash: string): number[] => split(hash, BAND_WIDTHS);

/** Every value of a `width`-bit band within `radius` flipped bits of `value` (itself first). */
function around(value: number, width: number, radius: number): number[] {
  const out = [value];
  const walk = (from: number, mask: number, left: number) => {
    for (let bit = from; bit < width; bit++) {
      const m = mask | (1 << bit);
      out.push(value ^ m);
      if (left > 1) walk(bit + 1, m, left - 1);
    }
  };
  if (radius > 0) walk(0, 0, radius);
  return out;
}

/**
 * The band values to look up so that every hash within `distance` (≤ INDEX_RADIUS) of `hash` is found: per band,
 * the values within ⌊distance/3⌋ bits of the query's.
 */
export function probes(hash: string, distance: number): number[][] {
  const radius = Math.floor(distance / BAND_WIDTHS.length);
  return bands(hash).map((v, i) => around(v, BAND_WIDTHS[i], radius));
}

/** How many values probes() looks up for one hash at `distance`: what the index lookup costs. */
export function probeCount(distance: number): number {
  const radius = Math.floor(distance / BAND_WIDTHS.length);
  const choose = (n: number, k: number) => {
    let c = 1;
    for (let i = 0; i < k; i++) c = (c * (n - i)) / (i + 1);
    return c;
  };
  return BAND_WIDTHS.reduce((sum, w) => sum + Array.from({ length: radius + 1 }, (_, k) => choose(w, k)).reduce((a, b) => a + b, 0), 0);
}

/**
 * The in-memory index for grouping near-duplicate sets (similar.ts nearSets): nine narrow bands (seven of 7 bits,
 * one of 8), compared for equality, find every pair within 8 (NEAR_INDEX_RADIUS) without enumerating neighbours.
 */
export const NEAR_INDEX_RADIUS = 8;
export const nearBands = (hash: string): number[] => split(hash, [7, 7, 7, 7, 7, 7, 7, 7, 8]);

/**
 * The distance between two assets' hash sets (an image: its dHash alone; a video: its scene keyframes): for each
 * hash of one, the nearest of the other, averaged and rounded, taken both ways and the larger kept. Two images
 * compare by plain Hamming distance; two encodes of one clip come out near 0; a clip sharing one scene with
 * another does not pass for its copy. It is never below the nearest pair's distance.
 */
export function setDistance(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 64;
  const way = (x: readonly string[], y: readonly string[]) =>
    x.reduce((sum, h) => sum + Math.min(...y.map((g) => hamming(h, g))), 0) / x.length;
  return Math.round(Math.max(way(a, b), way(b, a)));
}
