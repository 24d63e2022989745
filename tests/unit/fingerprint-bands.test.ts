import { describe, expect, it } from "vitest";
import { BAND_WIDTHS, bands, hamming, INDEX_RADIUS, probeCount, probes } from "../../functions/duplicates/hashes";

/**
 * The band index's promise (docs/decisions/058-duplicates-and-look-alikes.md): every hash within INDEX_RADIUS of the
 * query has at least one band among the values probes() looks up, however its differing bits fall.
 */

const randomHash = () => [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, "0")).join("");
/** `hash` with the given bit positions (0 = the top bit) flipped. */
const flipBits = (hash: string, bits: number[]) => {
  let v = BigInt(`0x${hash}`);
  for (const b of bits) v ^= 1n << BigInt(63 - b);
  return v.toString(16).padStart(16, "0");
};
const found = (query: string, other: string, distance: number) => {
  const looked = probes(query, distance).map((values) => new Set(values));
  return bands(other).some((v, i) => looked[i].has(v));
};

describe("fingerprint bands", () => {
  it("cut the 64 bits into 21, 21 and 22, top first", () => {
    expect(BAND_WIDTHS.reduce((a: number, b) => a + b, 0)).toBe(64);
    expect(bands("ffffffffffffffff")).toEqual([2 ** 21 - 1, 2 ** 21 - 1, 2 ** 22 - 1]);
    expect(bands("8000000000000000")).toEqual([2 ** 20, 0, 0]);
    expect(bands("0000000000000001")).toEqual([0, 0, 1]);
    expect(bands("0000080000000000")).toEqual([1, 0, 0]); // 2^43: the last of the first band
    expect(bands("0000040000000000")).toEqual([0, 2 ** 20, 0]); // 2^42: the first of the second
  });

  it("find every hash within the radius, its differing bits spread evenly over the bands or not", () => {
    for (let distance = 0; distance <= INDEX_RADIUS; distance++) {
      const query = randomHash();
      // Spread as evenly as possible: the case where no band is untouched.
      const spread = Array.from({ length: distance }, (_, k) => {
        const band = k % 3;
        const start = [0, 21, 42][band];
        return start + Math.floor(k / 3);
      });
      const other = flipBits(query, spread);
      expect(hamming(query, other)).toBe(distance);
      expect(found(query, other, distance), `distance ${distance}`).toBe(true);
      for (let n = 0; n < 200; n++) {
        const bits = new Set<number>();
        while (bits.size < distance) bits.add(Math.floor(Math.random() * 64));
        expect(found(query, flipBits(query, [...bits]), distance)).toBe(true);
      }
    }
  });

  it("look up no more values than probeCount says, a few thousand at most within the radius", () => {
    const query = randomHash();
    for (const distance of [0, 2, 5, 8, INDEX_RADIUS]) {
      const values = probes(query, distance);
      expect(values.reduce((n, v) => n + new Set(v).size, 0)).toBe(probeCount(distance));
    }
    expect(probeCount(8)).toBe(718);
    expect(probeCount(INDEX_RADIUS)).toBe(4918);
  });
});
