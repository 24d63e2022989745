/**
 * The arithmetic of the local IVF vector index (docs/decisions/051-search-at-scale.md): spherical k-means
 * centroids over a sample of unit vectors, each vector filed in the list of its nearest centroid, and a query
 * reading only the lists of its few nearest centroids. No server imports: the bench builds its index with these.
 */

export const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};

/** Unit length, so the dot product is the cosine. */
export function normalize(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  const len = Math.sqrt(n) || 1;
  return v.map((x) => x / len);
}

/** Below this many vectors the index is not built: reading them all is already fast. */
export const MIN_TRAIN = 2000;

/** Lists for `n` vectors: about √n, so a list and the centroid table are both about √n long. */
export const listCount = (n: number) => Math.max(1, Math.min(4096, Math.round(Math.sqrt(n))));

/** Sampled vectors per list for training: enough for stable centroids, bounded so training stays seconds. */
export const SAMPLE_PER_LIST = 16;

/** Lists a query reads: the nearest few, and more for larger indexes (about 3 % of them, at least 8). */
export const probes = (lists: number) => Math.min(lists, Math.max(8, Math.ceil(lists / 32)));

/** The index of the centroid nearest to `v` (largest dot product). */
export function nearestList(centroids: Float32Array[], v: Float32Array): number {
  let best = 0;
  let bestDot = Number.NEGATIVE_INFINITY;
  for (let c = 0; c < centroids.length; c++) {
    const d = dot(centroids[c], v);
    if (d > bestDot) {
      bestDot = d;
      best = c;
    }
  }
  return best;
}

/** The `n` centroids nearest to `v`, nearest first. */
export function nearestLists(centroids: Float32Array[], v: Float32Array, n: number): number[] {
  return centroids
    .map((c, i) => [dot(c, v), i] as const)
    .sort((a, b) => b[0] - a[0])
    .slice(0, n)
    .map(([, i]) => i);
}

/**
 * Spherical k-means: `k` unit centroids over the unit vectors `sample`, started from distinct sample points
 * (picked by `random`, so the bench is repeatable) and refined `rounds` times. A list that loses all its
 * vectors keeps its centroid: an empty list costs a query nothing.
 */
export function kmeans(sample: Float32Array[], k: number, rounds = 6, random: () => number = Math.random): Float32Array[] {
  const dims = sample[0]?.length ?? 0;
  const picked = new Set<number>();
  const want = Math.min(k, sample.length);
  for (let tries = 0; picked.size < want && tries < want * 10; tries++) picked.add(Math.floor(random() * sample.length));
  // A random source that keeps repeating itself still gets its k: the rest in order.
  for (let i = 0; picked.size < want; i++) picked.add(i);
  let centroids: Float32Array[] = [...picked].map((i) => Float32Array.from(sample[i]));
  for (let round = 0; round < rounds; round++) {
    const sums = centroids.map(() => new Float32Array(dims));
    const counts = new Array<number>(centroids.length).fill(0);
    for (const v of sample) {
      const c = nearestList(centroids, v);
      const s = sums[c];
      for (let i = 0; i < dims; i++) s[i] += v[i];
      counts[c]++;
    }
    centroids = centroids.map((old, c) => (counts[c] ? normalize(sums[c]) : old));
  }
  return centroids;
}

/**
 * A vector as signed bytes and one scale (`v[i] ≈ q[i] × scale`): a quarter of the float32's bytes, which is what a
 * query mostly pays for (every candidate crosses from D1 to the Worker). Candidates are ranked by it, and the best
 * are re-scored from their full vectors.
 */
export function quantize(v: Float32Array): { q: Int8Array; scale: number } {
  let max = 0;
  for (const x of v) max = Math.max(max, Math.abs(x));
  const scale = max / 127 || 1;
  return { q: Int8Array.from(v, (x) => Math.round(x / scale)), scale };
}

/** The dot product of a quantized vector with `b`. */
export const dotQuantized = (q: Int8Array, scale: number, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < q.length; i++) s += q[i] * b[i];
  return s * scale;
};
