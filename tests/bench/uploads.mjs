/**
 * Upload and download figures against `npm start` (docs/decisions/007-uploads.md):
 *  - a 1 GiB file uploaded through the Worker path (R2 binding), parts in parallel as the client sends them,
 *    then downloaded in one stream, in MB/s, next to `cp` of the same file on the same disk;
 *  - the presigned path against a local S3-compatible server (@20minutes/s3rver): bytes that passed
 *    through the Worker (must be 0).
 * Aims: upload >= 100 MB/s, download >= 500 MB/s. BENCH_SIZE_MB, BENCH_PARALLEL, BENCH_PART_MB override the defaults.
 * The download is timed with a client that keeps up with the server, and checked (sha256) by a second one.
 * Locally both figures are bounded by Miniflare's R2 emulation, which runs in the same workerd process as the
 * Worker; `npm install` makes it stream natively (docs/decisions/019-local-r2-streams.md). The browser client
 * sends 5 MiB parts for files under ~20 GB (app/lib/upload-protocol.ts); BENCH_PART_MB=5 measures that.
 */
import { createHash } from "node:crypto";
import { closeSync, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "@20minutes/s3rver";
import { benchAdmin, countBytes, randomFileAndCp, startServer } from "./server.mjs";

const MiB = 1024 * 1024;
const size = Number(process.env.BENCH_SIZE_MB ?? 1024) * MiB;
const parallel = Number(process.env.BENCH_PARALLEL ?? 4);
const partSize = process.env.BENCH_PART_MB ? Number(process.env.BENCH_PART_MB) * MiB : undefined;
const presignedSize = Math.min(size, 256 * MiB);
const mbps = (bytes, ms) => `${(bytes / 1e6 / (ms / 1000)).toFixed(0)} MB/s`;

const { dir, file, cpMs } = randomFileAndCp("mam-bench-upl-", size);
let t = performance.now();

function readPart(fd, offset, length) {
  const buf = Buffer.allocUnsafe(length);
  readSync(fd, buf, 0, length, offset);
  return buf;
}

const server = await startServer();
const s3dir = mkdtempSync(path.join(tmpdir(), "mam-bench-s3-"));
const s3 = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: s3dir, configureBuckets: [{ name: "bench" }] });
try {
  const call = async (p, init = {}) => {
    const res = await fetch(server.url + p, {
      ...init,
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${bearer}`, ...init.headers },
    });
    if (!res.ok) throw new Error(`${init.method ?? "GET"} ${p}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  let bearer = "";
  bearer = (await call("/api/auth/login", { method: "POST", body: JSON.stringify(benchAdmin) })).bearer;

  /** The client protocol: start, targets, parallel PUTs (each retried alone), report, complete. */
  async function upload(assetId, bytes) {
    const up = await call("/api/ul/start", {
      method: "POST",
      body: JSON.stringify({ asset_id: assetId, size: bytes, name: "Бенчмарк.bin", mime: "application/octet-stream", part_size: partSize }),
    });
    const fd = openSync(file, "r");
    const queue = Array.from({ length: up.part_count }, (_, i) => i + 1);
    async function worker() {
      for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
        const [target] = await call(`/api/ul/${up.upload_id}/targets`, { method: "POST", body: JSON.stringify({ parts: [n] }) });
        const body = readPart(fd, (n - 1) * up.part_size, target.size);
        for (let attempt = 1; ; attempt++) {
          const res = await fetch(target.url, { method: "PUT", body }).catch((e) => (e instanceof Error ? e : new Error(String(e))));
          if (!(res instanceof Error) && res.ok) {
            await call(`/api/ul/${up.upload_id}/parts/${n}`, { method: "POST", body: JSON.stringify({ etag: res.headers.get("ETag") }) });
            await res.arrayBuffer();
            break;
          }
          if (attempt === 3) throw new Error(`part ${n}: ${res instanceof Error ? res.message : res.status}`);
        }
      }
    }
    await Promise.all(Array.from({ length: parallel }, worker));
    closeSync(fd);
    await call(`/api/ul/${up.upload_id}/complete`, { method: "POST" });
    return call(`/api/ul/${up.upload_id}`);
  }

  const asset = await call("/api/asset/create", {
    method: "POST",
    body: JSON.stringify({ asset_name: "Бенчмарк.bin", asset_mime: "application/octet-stream" }),
  });
  t = performance.now();
  const done = await upload(asset.asset_id, size);
  const upMs = performance.now() - t;

  // Downloaded twice, in one stream each. Timed: countBytes, a client that keeps up with the server (as a
  // browser's network stack does). Checked: fetch hashing the bytes as they arrive; on these 2 cores
  // that client's web streams and sha256 cost more than the server, so its figure is printed but not the one timed.
  const downloadUrl = `${server.url}/api/asset/content/download-variant/${done.variant_id}`;
  t = performance.now();
  const downloaded = await countBytes(downloadUrl, { Authorization: `Bearer ${bearer}` });
  const counted = downloaded.status === 200 ? downloaded.bytes : -1;
  const downMs = performance.now() - t;
  t = performance.now();
  const res = await fetch(downloadUrl, { headers: { Authorization: `Bearer ${bearer}` } });
  const hash = createHash("sha256");
  let got = 0;
  for await (const chunk of res.body ?? []) {
    got += chunk.length;
    hash.update(chunk);
  }
  const hashedMs = performance.now() - t;
  const source = createHash("sha256");
  {
    const fd = openSync(file, "r");
    for (let off = 0; off < size; off += 64 * MiB) source.update(readPart(fd, off, Math.min(64 * MiB, size - off)));
    closeSync(fd);
  }
  const identical = counted === size && got === size && hash.digest("hex") === source.digest("hex");

  const { port } = await s3.run();
  const storage = await call("/api/storage/create", {
    method: "POST",
    body: JSON.stringify({
      storage_name: "S3 (bench)",
      kind: "s3",
      storage_setup: { url: `http://127.0.0.1:${port}`, bucket: "bench", region: "us-east-1" },
      user: "S3RVER",
      passwd: "S3RVER",
    }),
  });
  const a2 = await call("/api/asset/create", {
    method: "POST",
    body: JSON.stringify({ asset_name: "s3.bin", asset_mime: "application/octet-stream" }),
  });
  await call(`/api/storage/for-entity/${a2.asset_id}`, { method: "POST", body: JSON.stringify({ storage_id: storage.storage_id }) });
  t = performance.now();
  const pre = await upload(a2.asset_id, presignedSize);
  const preMs = performance.now() - t;

  const gib = (size / 1024 / MiB).toFixed(2);
  console.log(`File: ${gib} GiB, ${done.part_count} parts of ${done.part_size / MiB} MiB, ${parallel} in parallel`);
  console.log(`cp on the same disk:            ${mbps(size, cpMs)} (${(cpMs / 1000).toFixed(1)} s)`);
  console.log(`Upload through the Worker (R2): ${mbps(size, upMs)} (${(upMs / 1000).toFixed(1)} s; aim >= 100 MB/s)`);
  console.log(`Download, one stream:           ${mbps(size, downMs)} (${(downMs / 1000).toFixed(1)} s; aim >= 500 MB/s)`);
  console.log(`  again, sha256 as it arrives:  ${mbps(size, hashedMs)} (byte-identical: ${identical})`);
  console.log(
    `Presigned path (S3 server, ${presignedSize / MiB} MiB): ${mbps(presignedSize, preMs)}; bytes through the Worker: ${pre.worker_bytes} (must be 0)`,
  );
  console.log(`Worker path bytes through the Worker: ${done.worker_bytes} (= file size)`);
} finally {
  server.stop();
  await s3.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
  rmSync(s3dir, { recursive: true, force: true });
}
