/**
 * WebDAV figures against `npm start` (docs/decisions/036-webdav-and-disk-helper.md):
 *  - PROPFIND depth 1 of a group of 10,000 assets (aim < 300 ms), median of 5;
 *  - PUT and GET of one large file through /dav/ in MB/s, next to `cp` of the same file (the upload API's
 *    own figures are `npm run bench uploads`).
 * BENCH_SIZE_MB (default 256; the issue's 1 GiB is BENCH_SIZE_MB=1024) and BENCH_ASSETS (default 10000) override.
 */
import { createReadStream, rmSync } from "node:fs";
import http from "node:http";
import { benchAdmin, randomFileAndCp, startServer } from "./server.mjs";

const MiB = 1024 * 1024;
const size = Number(process.env.BENCH_SIZE_MB ?? 256) * MiB;
const assetCount = Number(process.env.BENCH_ASSETS ?? 10_000);
const mbps = (bytes, ms) => `${(bytes / 1e6 / (ms / 1000)).toFixed(0)} MB/s`;
const basic = `Basic ${Buffer.from(`${benchAdmin.user}:${benchAdmin.passwd}`).toString("base64")}`;

const { dir, file, cpMs } = randomFileAndCp("mam-bench-dav-", size);
let t = performance.now();

const server = await startServer();
try {
  const dav = (method, p, headers = {}) => fetch(`${server.url}${p}`, { method, headers: { Authorization: basic, ...headers } });
  const api = async (p, body, bearer) => {
    const res = await fetch(`${server.url}${p}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const { bearer } = await api("/api/auth/login", benchAdmin);
  await dav("MKCOL", "/dav/bench/");
  const groupId = (
    await (await fetch(`${server.url}/api/group/entity-by-path?path=%2Fbench`, { headers: { Authorization: `Bearer ${bearer}` } })).json()
  ).el_id;
  for (let i = 0; i < assetCount; i += 100) {
    const assets = Array.from({ length: Math.min(100, assetCount - i) }, (_, k) => ({
      asset_name: `file-${i + k}.bin`,
      asset_mime: "application/octet-stream",
      in_group: groupId,
    }));
    await api("/api/asset/create-list", { assets }, bearer);
  }
  const times = [];
  let entries = 0;
  for (let i = 0; i < 5; i++) {
    t = performance.now();
    const res = await dav("PROPFIND", "/dav/bench/", { Depth: "1" });
    const text = await res.text();
    if (res.status !== 207) throw new Error(`PROPFIND: ${res.status} ${text.slice(0, 300)}`);
    times.push(performance.now() - t);
    entries = (text.match(/<D:response>/g) ?? []).length;
  }
  times.sort((a, b) => a - b);

  t = performance.now();
  await new Promise((resolve, reject) => {
    const req = http.request(`${server.url}/dav/bench/big.bin`, {
      method: "PUT",
      headers: { Authorization: basic, "Content-Length": String(size), "Content-Type": "application/octet-stream" },
    });
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => (res.statusCode === 201 ? resolve(undefined) : reject(new Error(`PUT: ${res.statusCode}`))));
    });
    req.on("error", reject);
    createReadStream(file).pipe(req);
  });
  const putMs = performance.now() - t;

  t = performance.now();
  let got = 0;
  await new Promise((resolve, reject) => {
    http
      .get(`${server.url}/dav/bench/big.bin`, { headers: { Authorization: basic } }, (res) => {
        res.on("data", (d) => {
          got += d.length;
        });
        res.on("end", resolve);
      })
      .on("error", reject);
  });
  const getMs = performance.now() - t;
  if (got !== size) throw new Error(`GET returned ${got} bytes of ${size}`);

  console.log(
    `PROPFIND depth 1, ${entries - 1} assets: median ${times[2].toFixed(0)} ms (min ${times[0].toFixed(0)}, max ${times[4].toFixed(0)}; aim < 300 ms)`,
  );
  console.log(`PUT ${size / MiB} MiB through /dav/: ${mbps(size, putMs)}`);
  console.log(`GET ${size / MiB} MiB through /dav/: ${mbps(size, getMs)}`);
  console.log(`cp of the same file: ${mbps(size, cpMs)}`);
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
