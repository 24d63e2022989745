/**
 * 64-bit perceptual hashes as 16 hex digits (docs/decisions/058-duplicates-and-look-alikes.md): Hamming distance
 * and the nine bands of the multi-index (seven of 7 bits, the last of 8). Two hashes within distance 8 differ in
 * at most 8 bits, so at least one of the nine bands is untouched: a band lookup finds every such pair.
 */

export const HASH_RE = /^[0-9a-f]{16}$/;
export const BAND_COUNT = 9;
/** The largest distance the band lookup answers with certainty; beyond it the search scans. */
export const INDEX_RADIUS = BAND_COUNT - 1;

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

export function bands(hash: string): number[] {
  const v = BigInt(`0x${hash}`);
  const out: number[] = [];
  for (let i = 0; i < BAND_COUNT; i++) {
    const width = i === BAND_COUNT - 1 ? 8 : 7;
    out.push(Number((v >> BigInt(64 - 7 * i - width)) & BigInt((1 << width) - 1)));
  }
  return out;
}

/**
 * The distance between two assets' hash sets (an image: its dHash alone; a video: its scene keyframes): for each
 * hash of one, the nearest of the other, averaged and rounded, taken both ways and the larger kept. Two images
 * compare by plain Hamming distance; two encodes of one clip come out near 0; a clip sharing one scene with
 * another does not pass for its copy.
 */
export function setDistance(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 64;
  const way = (x: readonly string[], y: readonly string[]) =>
    x.reduce((sum, h) => sum + Math.min(...y.map((g) => hamming(h, g))), 0) / x.length;
  return Math.round(Math.max(way(a, b), way(b, a)));
}
