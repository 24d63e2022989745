import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { operations } from "../../transcoder/ops/index.mjs";

/**
 * The transcoder's preview of an SVG (transcoder/ops/index.mjs): a raster JPEG, and the picture is the
 * SVG's own — an <image> pointing at a file beside the source (another job's source in the shared
 * directory) is not embedded, whether the asset says image/svg+xml or lies about its type.
 */
const dir = mkdtempSync(path.join(tmpdir(), "mam-svg-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ctx = (src: string) => ({ src, dir, signal: new AbortController().signal, log: () => {}, progress: () => {} });

/** The colour of the preview's centre pixel. */
async function centre(file: string) {
  const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
  const at = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels;
  return [data[at], data[at + 1], data[at + 2]];
}

describe("an SVG preview", () => {
  it("is a JPEG of the SVG itself, never of a file beside it", async () => {
    await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 255, g: 0, b: 0 } } })
      .png()
      .toFile(path.join(dir, "neighbour.png"));
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="400" height="200">
      <rect width="400" height="200" fill="#0000ff"/>
      <image xlink:href="neighbour.png" width="400" height="200"/>
      <image xlink:href="file://${dir}/neighbour.png" width="400" height="200"/>
    </svg>`;
    const src = path.join(dir, "source-1");
    writeFileSync(src, svg);
    for (const mime of ["image/svg+xml", "image/png"]) {
      const { outputs } = await operations.preview({ source: { mime }, setup: { width: 640, height: 360, quality: 80 } }, ctx(src));
      expect(outputs[0]).toMatchObject({ name: "preview", mime: "image/jpeg", tech: { width: 400, height: 200 } });
      expect((await sharp(outputs[0].file).metadata()).format).toBe("jpeg");
      const [r, g, b] = await centre(outputs[0].file);
      expect(b).toBeGreaterThan(200);
      expect(r).toBeLessThan(50);
      expect(g).toBeLessThan(50);
    }
  });
});
