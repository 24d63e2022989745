import { describe, expect, it } from "vitest";
import { dot, dotQuantized, kmeans, listCount, nearestList, nearestLists, normalize, probes, quantize } from "../../functions/search/ivf";

/** The local IVF index's arithmetic (functions/search/ivf.ts, docs/decisions/051-search-at-scale.md). */

let seed = 7;
const rand = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const DIMS = 64;
const randomUnit = () => normalize(Float32Array.from({ length: DIMS }, () => rand() - 0.5));
const topics = Array.from({ length: 60 }, randomUnit);
const nearTopic = () => {
  const t = topics[Math.floor(rand() * topics.length)];
  return normalize(t.map((x) => x + (rand() - 0.5) * 0.3));
};

describe("IVF index", () => {
  it("sizes lists and probes by the number of vectors", () => {
    expect(listCount(100_000)).toBe(316);
    expect(listCount(1)).toBe(1);
    expect(probes(316)).toBe(10);
    expect(probes(4)).toBe(4);
    expect(probes(100)).toBe(8);
  });

  it("finds the exact top 10 among the vectors of the nearest lists (recall ≥ 90 % on clustered data)", () => {
    const vectors = Array.from({ length: 4000 }, nearTopic);
    const k = listCount(vectors.length);
    const centroids = kmeans(vectors.slice(0, k * 16), k, 6, rand);
    expect(centroids).toHaveLength(k);
    for (const c of centroids) expect(dot(c, c)).toBeCloseTo(1, 4);
    const lists = vectors.map((v) => nearestList(centroids, v));
    let found = 0;
    let read = 0;
    const queries = 20;
    for (let q = 0; q < queries; q++) {
      const target = nearTopic();
      const exact = vectors
        .map((v, i) => [dot(v, target), i] as const)
        .sort((a, b) => b[0] - a[0])
        .slice(0, 10)
        .map(([, i]) => i);
      const probed = new Set(nearestLists(centroids, target, probes(k)));
      const candidates = vectors.flatMap((v, i) => (probed.has(lists[i]) ? [[dot(v, target), i] as const] : []));
      read += candidates.length;
      const approx = new Set(
        candidates
          .sort((a, b) => b[0] - a[0])
          .slice(0, 10)
          .map(([, i]) => i),
      );
      found += exact.filter((i) => approx.has(i)).length;
    }
    expect(found / (queries * 10)).toBeGreaterThanOrEqual(0.9);
    // The point of the index: a query reads a small part of the vectors.
    expect(read / queries).toBeLessThan(vectors.length / 3);
  });

  it("ranks by quantized vectors close enough that re-scoring the best 3 × take finds the exact top", () => {
    const vectors = Array.from({ length: 3000 }, nearTopic);
    const quantized = vectors.map(quantize);
    for (const { q } of quantized) expect(Math.max(...Array.from(q, Math.abs))).toBe(127);
    let found = 0;
    for (let n = 0; n < 20; n++) {
      const target = nearTopic();
      const byExact = vectors.map((v, i) => [dot(v, target), i] as const).sort((a, b) => b[0] - a[0]);
      for (const [score, i] of byExact.slice(0, 50)) expect(dotQuantized(quantized[i].q, quantized[i].scale, target)).toBeCloseTo(score, 2);
      const shortlist = quantized
        .map(({ q, scale }, i) => [dotQuantized(q, scale, target), i] as const)
        .sort((a, b) => b[0] - a[0])
        .slice(0, 30)
        .map(([, i]) => i);
      const top = shortlist.map((i) => [dot(vectors[i], target), i] as const).sort((a, b) => b[0] - a[0]);
      found += top.slice(0, 10).filter(([, i], k) => i === byExact[k][1]).length;
    }
    expect(found).toBe(200);
  });

  it("keeps the centroid of a list that loses its vectors", () => {
    const same = Array.from({ length: 10 }, () => Float32Array.from([1, 0]));
    const centroids = kmeans([...same, Float32Array.from([0, 1])], 2, 3, () => 0);
    // Both starts are [1, 0]: every vector goes to the first list, the second keeps its start.
    expect(centroids).toHaveLength(2);
    expect(Array.from(centroids[1])).toEqual([1, 0]);
    expect(nearestList(centroids, Float32Array.from([0, 1]))).toBe(0);
  });
});
