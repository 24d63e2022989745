import sharp from "sharp";
import { ffmpegInput, ffmpegPath, run } from "../tools.mjs";

/**
 * Perceptual fingerprints (docs/decisions/058-duplicates-and-look-alikes.md), reported with the metadata task's
 * tech fields: `dhash` and `phash` of an image, `scene_hashes` (difference hashes of scene keyframes) of a video.
 * Each is 64 bits as 16 hex digits; the Worker stores them (functions/duplicates) and compares by Hamming distance.
 */

/** Difference hash of a 9×8 grey picture (row-major bytes): bit set where a pixel is brighter than its right neighbour. */
export function dHash(px) {
  let hex = "";
  for (let nibble = 0; nibble < 16; nibble++) {
    let v = 0;
    for (let b = 0; b < 4; b++) {
      const i = nibble * 4 + b;
      const row = Math.floor(i / 8);
      const col = i % 8;
      v = (v << 1) | (px[row * 9 + col] > px[row * 9 + col + 1] ? 1 : 0);
    }
    hex += v.toString(16);
  }
  return hex;
}

const N = 32;
const cosines = Array.from({ length: 8 }, (_, u) => Array.from({ length: N }, (_, x) => Math.cos(((2 * x + 1) * u * Math.PI) / (2 * N))));

/**
 * DCT hash of a 32×32 grey picture: the 8×8 lowest frequencies of its 2-D DCT, each bit set where the
 * coefficient is above their median (the DC term is left out of the median, it only measures brightness).
 */
export function pHash(px) {
  const coeffs = [];
  for (let u = 0; u < 8; u++)
    for (let v = 0; v < 8; v++) {
      let s = 0;
      for (let y = 0; y < N; y++) {
        const cy = cosines[u][y];
        for (let x = 0; x < N; x++) s += px[y * N + x] * cy * cosines[v][x];
      }
      coeffs.push(s);
    }
  const sorted = coeffs.slice(1).sort((a, b) => a - b);
  const median = (sorted[31] + sorted[32]) / 2;
  let hex = "";
  for (let nibble = 0; nibble < 16; nibble++) {
    let v = 0;
    for (let b = 0; b < 4; b++) v = (v << 1) | (coeffs[nibble * 4 + b] > median ? 1 : 0);
    hex += v.toString(16);
  }
  return hex;
}

/** An image's two hashes, from the picture as shown (EXIF orientation applied, transparency on white). */
export async function imageHashes(input) {
  const grey = (w, h) =>
    sharp(input, { failOn: "none" })
      .rotate()
      .flatten({ background: "#ffffff" })
      .greyscale()
      .resize(w, h, { fit: "fill", kernel: "lanczos3" })
      .raw()
      .toBuffer();
  const [small, big] = await Promise.all([grey(9, 8), grey(N, N)]);
  return { dhash: dHash(small), phash: pHash(big) };
}

/** At most this many keyframes per video: the first frame and the following scene cuts. */
export const MAX_SCENES = 16;

/**
 * A video's scene keyframes as difference hashes: the first frame and every frame whose scene score is above 0.3,
 * measured on a 160-pixel-wide copy (the score needs no more, and decoding stays cheap), each scaled to 9×8 grey.
 * A flat frame (black, a fade) has no gradient to hash and is left out; a video of only such frames has none.
 */
export async function sceneHashes(src, signal) {
  const raw = await run(
    ffmpegPath,
    [
      "-v",
      "error",
      ...ffmpegInput,
      "-i",
      src,
      "-map",
      "0:v:0",
      "-vf",
      "scale=160:-2,select='eq(n\\,0)+gt(scene\\,0.3)',scale=9:8:flags=area,format=gray",
      "-vsync",
      "vfr",
      "-frames:v",
      String(MAX_SCENES * 2),
      "-f",
      "rawvideo",
      "pipe:1",
    ],
    { signal },
  );
  const hashes = [];
  for (let i = 0; i + 72 <= raw.length && hashes.length < MAX_SCENES; i += 72) {
    const px = raw.subarray(i, i + 72);
    if (Math.max(...px) - Math.min(...px) < 8) continue;
    hashes.push(dHash(px));
  }
  return hashes;
}
