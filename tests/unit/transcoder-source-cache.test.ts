import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createSourceCache } from "../../transcoder/source-cache.mjs";

/**
 * The transcoder's source cache (transcoder/source-cache.mjs): the tasks of one file share one
 * download, a job that stops waiting does not stop it for the others, and a failure is not cached.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const cacheDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), "mam-sc-"));
  dirs.push(d);
  return path.join(d, "sources");
};

/** A stand-in for the signed-URL download: writes `body` once `release()` is called, or fails. */
function fakeDownload(body = "bytes") {
  const calls: AbortSignal[] = [];
  let release: (ok?: boolean) => void = () => {};
  const download = (file: string, signal: AbortSignal) => {
    calls.push(signal);
    return new Promise<string>((resolve, reject) => {
      release = (ok = true) => {
        if (!ok) return reject(new Error("HTTP 503"));
        writeFileSync(file, body);
        resolve(`sha-of-${body}`);
      };
    });
  };
  return { download, calls, release: (ok?: boolean) => release(ok) };
}

describe("transcoder source cache", () => {
  it("downloads a source once for every job that asks for the same key", async () => {
    const cache = createSourceCache({ dir: cacheDir() });
    const d = fakeDownload();
    const a = cache.get("asset/1/variant/etag", d.download);
    const b = cache.get("asset/1/variant/etag", d.download);
    d.release();
    const [ra, rb] = await Promise.all([a, b]);
    expect(d.calls).toHaveLength(1);
    expect(ra).toEqual(rb);
    expect(ra.sha256).toBe("sha-of-bytes");
    expect(existsSync(ra.file)).toBe(true);
    expect((await cache.get("asset/1/variant/etag", d.download)).file).toBe(ra.file); // still cached
    expect(d.calls).toHaveLength(1);
  });

  it("a job that stops waiting leaves the download to the others; drop deletes the file", async () => {
    const dir = cacheDir();
    const cache = createSourceCache({ dir });
    const d = fakeDownload();
    const paused = new AbortController();
    const a = cache.get("k", d.download, paused.signal);
    const b = cache.get("k", d.download);
    paused.abort();
    await expect(a).rejects.toThrow("aborted");
    expect(d.calls[0].aborted).toBe(false);
    d.release();
    const { file } = await b;
    expect(existsSync(file)).toBe(true);
    cache.drop("k");
    // The file goes in the background.
    await expect.poll(() => readdirSync(dir)).toEqual([]);
    expect(cache.keys()).toEqual([]);
  });

  it("a failed download is not cached: the next job downloads again", async () => {
    const cache = createSourceCache({ dir: cacheDir() });
    const d = fakeDownload();
    const first = cache.get("k", d.download);
    d.release(false);
    await expect(first).rejects.toThrow("HTTP 503");
    const second = cache.get("k", d.download);
    d.release();
    expect((await second).sha256).toBe("sha-of-bytes");
    expect(d.calls).toHaveLength(2);
  });

  it("starts empty: files a previous process left are removed", () => {
    const dir = cacheDir();
    createSourceCache({ dir });
    writeFileSync(path.join(dir, "left-over"), "x");
    createSourceCache({ dir });
    expect(readdirSync(dir)).toEqual([]);
  });
});
