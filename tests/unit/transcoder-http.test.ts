import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHandler, transcoderConfig } from "../../transcoder/http.mjs";
import { frameCommand } from "../../transcoder/ops/video.mjs";
import { ffmpegPath, probe, run } from "../../transcoder/tools.mjs";

/**
 * The transcoder fails closed (docs/decisions/024-placing-rights-transcoder-quota.md): it will not start
 * open to the network without a token, answers a wrong token 401, refuses jobs whose URLs leave the
 * Worker's origin, and never lets a crafted file make ffmpeg fetch URLs or read other local files.
 */

const root = path.resolve(__dirname, "../..");
const ORIGIN = "https://mam.example.com";
const TOKEN = "transcoder-test-token";
const listen = (server: Server) =>
  new Promise<number>((r) => server.listen(0, "127.0.0.1", () => r((server.address() as AddressInfo).port)));

describe("starting", () => {
  it("refuses to start on a non-loopback host without TRANSCODER_TOKEN, before touching its state", async () => {
    expect(() => transcoderConfig({ TRANSCODER_HOST: "0.0.0.0" })).toThrow(/TRANSCODER_TOKEN is not set/);
    const state = path.join(mkdtempSync(path.join(tmpdir(), "mam-tx-")), "state");
    const child = spawn(process.execPath, [path.join(root, "transcoder/server.mjs")], {
      env: { ...process.env, TRANSCODER_HOST: "0.0.0.0", TRANSCODER_PORT: "0", TRANSCODER_TOKEN: "", TRANSCODER_STATE_DIR: state },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    const code = await new Promise((r) => child.on("exit", (c) => r(c)));
    clearTimeout(timer);
    expect(code).toBe(1);
    expect(stderr).toContain("TRANSCODER_TOKEN is not set");
    expect(existsSync(state)).toBe(false);
  }, 15_000);

  it("needs the Worker's origin off loopback; runs tokenless on loopback only", () => {
    expect(() => transcoderConfig({ TRANSCODER_HOST: "0.0.0.0", TRANSCODER_TOKEN: TOKEN })).toThrow(/TRANSCODER_ALLOWED_ORIGIN/);
    expect(transcoderConfig({ TRANSCODER_HOST: "0.0.0.0", TRANSCODER_TOKEN: TOKEN, PUBLIC_URL: `${ORIGIN}/x/` })).toMatchObject({
      allowedOrigin: ORIGIN,
    });
    for (const host of ["127.0.0.1", "::1", "localhost"])
      expect(transcoderConfig({ TRANSCODER_HOST: host })).toMatchObject({ token: "", allowedOrigin: null });
  });
});

describe("the HTTP handler", () => {
  const added: unknown[] = [];
  const queue = {
    add: (j: unknown) => {
      added.push(j);
      return { accepted: true };
    },
    get: () => null,
    remove: () => false,
    setPriority: () => false,
    stats: () => ({}),
  };
  const server = createServer(createHandler({ queue, token: TOKEN, allowedOrigin: ORIGIN, workerName: "test" }));
  let base = "";
  beforeAll(async () => {
    base = `http://127.0.0.1:${await listen(server)}`;
  });
  afterAll(() => server.close());

  const job = (over: Record<string, unknown> = {}) => ({
    id: crypto.randomUUID(),
    run: 1,
    operation: "proxy",
    setup: {},
    source: { url: `${ORIGIN}/api/media/v1?sig=a`, mime: "video/mp4" },
    outputs: { proxy: `${ORIGIN}/api/task-cb/j/out/proxy?sig=b` },
    callback: { url: `${ORIGIN}/api/task-cb/j`, token: "t" },
    ...over,
  });
  const submit = (body: unknown, token = TOKEN) =>
    fetch(`${base}/tasks`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });

  it("answers a missing or wrong token 401, and takes a good job with the right one", async () => {
    expect((await fetch(`${base}/tasks/${crypto.randomUUID()}`)).status).toBe(401);
    for (const wrong of ["", "x", `${TOKEN}x`, TOKEN.slice(0, -1)]) expect((await submit(job(), wrong)).status).toBe(401);
    expect(added).toHaveLength(0);
    expect((await submit(job())).status).toBe(202);
    expect(added).toHaveLength(1);
  });

  it.each([
    ["source.url", { source: { url: "http://169.254.169.254/latest/meta-data/", mime: "video/mp4" } }],
    ["outputs.proxy", { outputs: { proxy: "https://evil.example/put" } }],
    ["callback.url", { callback: { url: "https://mam.example.com.evil.example/cb", token: "t" } }],
    ["setup.image_url", { setup: { image_url: "http://127.0.0.1:8080/mark.png" } }],
    ["setup.recognizer.url", { setup: { recognizer: { url: "https://evil.example/v1/audio/transcriptions", model: "m" } } }],
    ["setup.recognizer.url", { setup: { recognizer: { model: "m" } } }],
    ["source.url", { source: { url: "file:///etc/passwd", mime: "video/mp4" } }],
    ["source.url", { source: { url: `https://user:pw@mam.example.com/api/media/v1`, mime: "video/mp4" } }],
    ["source.url", { source: { url: "http://mam.example.com/api/media/v1", mime: "video/mp4" } }],
  ])("refuses a job whose %s lies outside the Worker's origin (400)", async (field, over) => {
    const before = added.length;
    const res = await submit(job(over));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain(field);
    expect(added).toHaveLength(before);
  });
});

describe("crafted media files", () => {
  let dir = "";
  let clip = "";
  let hits = 0;
  const bait = createServer((_req, res) => {
    hits++;
    res.end("#EXTM3U\n");
  });
  let baitPort = 0;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "mam-crafted-"));
    clip = path.join(dir, "other-users-clip.mp4");
    await run(ffmpegPath, ["-v", "error", "-f", "lavfi", "-i", "testsrc=d=1:s=64x48:r=5", "-y", clip]);
    baitPort = await listen(bait);
  }, 30_000);
  afterAll(() => {
    bait.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const craft = (name: string, text: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    return file;
  };

  it("an HLS playlist naming a URL: ffprobe and ffmpeg refuse it and never connect", async () => {
    const playlist = `#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nhttp://127.0.0.1:${baitPort}/seg.ts\n#EXT-X-ENDLIST\n`;
    for (const name of ["source", "source.m3u8"]) {
      const file = craft(name, playlist);
      await expect(probe(file)).rejects.toThrow(/not on whitelist|Invalid data/);
      await expect(run(ffmpegPath, frameCommand(file, 0))).rejects.toThrow();
    }
    expect(hits).toBe(0);
  });

  it("a playlist naming another local file: refused, the file is never read", async () => {
    const concat = craft("concat-source", `ffconcat version 1.0\nfile '${path.basename(clip)}'\n`);
    await expect(probe(concat)).rejects.toThrow(/not on whitelist/);
    const hls = craft("hls-source.m3u8", `#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n${path.basename(clip)}\n#EXT-X-ENDLIST\n`);
    await expect(probe(hls)).rejects.toThrow(/not on whitelist/);
    await expect(run(ffmpegPath, frameCommand(concat, 0))).rejects.toThrow(/not on whitelist/);
    // The file itself is ordinary media and still reads.
    expect((await probe(clip)).streams[0].codec_type).toBe("video");
  });
});
