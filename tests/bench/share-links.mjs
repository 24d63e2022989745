/**
 * Share-link page figures against `npm start` (docs/decisions/010-share-links.md): time to first byte of
 * /sl/{id} over 200 sequential requests after 20 warm-up ones (p50/p95), and the page's total transfer
 * size without the media: the HTML plus every stylesheet and script it loads, gzipped as an edge would
 * send them. Aims: p95 < 30 ms locally, < 100 KB. Prints figures; never fails on time.
 */
import { request } from "node:http";
import { gzipSync } from "node:zlib";
import { benchAdmin, kib, ms, percentile, startServer } from "./server.mjs";

/** Time to the first byte of the body, measured on a fresh connection like a first visit. */
function ttfb(url) {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const req = request(url, { agent: false }, (res) => {
      let first = 0;
      res.once("data", () => (first = performance.now() - t));
      res.on("end", () => resolve({ ms: first, status: res.statusCode }));
      res.resume();
    });
    req.on("error", reject);
    req.end();
  });
}

const server = await startServer();
try {
  const login = await (
    await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(benchAdmin),
    })
  ).json();
  const H = { "Content-Type": "application/json", Authorization: `Bearer ${login.bearer}` };
  const call = async (p, body) => {
    const res = await fetch(server.url + p, { method: "POST", headers: H, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${p}: ${res.status} ${text}`);
    return text.startsWith("{") || text.startsWith("[") ? JSON.parse(text) : text;
  };
  // A 1 MiB "video" uploaded through the client protocol, shared with view and download.
  const { asset_id } = await call("/api/asset/create", { asset_name: "Бенчмарк.mp4", asset_mime: "video/mp4" });
  const data = new Uint8Array(1024 * 1024).map((_, i) => i % 251);
  const up = await call("/api/ul/start", { asset_id, size: data.length, name: "Бенчмарк.mp4", mime: "video/mp4" });
  const targets = await call(`/api/ul/${up.upload_id}/targets`, { parts: Array.from({ length: up.part_count }, (_, i) => i + 1) });
  for (const t of targets) {
    const chunk = data.slice((t.part - 1) * up.part_size, (t.part - 1) * up.part_size + t.size);
    const put = await fetch(new URL(t.url, server.url), { method: "PUT", body: chunk });
    await call(`/api/ul/${up.upload_id}/parts/${t.part}`, { etag: put.headers.get("ETag") });
  }
  await call(`/api/ul/${up.upload_id}/complete`);
  const id = await call(`/api/sl/create/${asset_id}`, { acl: ["view", "download_original"] });
  const page = `${server.url}/sl/${id}`;

  /** 20 warm-up requests, then 200 measured; any status but 200 stops the bench. */
  const measure = async (url) => {
    for (let i = 0; i < 20; i++) await ttfb(url);
    const times = [];
    for (let i = 0; i < 200; i++) {
      const r = await ttfb(url);
      if (r.status !== 200) throw new Error(`${url}: ${r.status}`);
      times.push(r.ms);
    }
    return `p50 ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}`;
  };
  console.log(`TTFB of /sl/{id} over 200 (warm): ${await measure(page)} (aim p95 < 30 ms)`);
  // The edge cache keeps plain GETs only (functions/sl/page-cache.ts): a query string makes the Worker render
  // the same page, and the same info answer, every time.
  console.log(`  served from the edge cache: ${await measure(page)}`);
  console.log(`  rendered every time (?fresh): ${await measure(`${page}?fresh=1`)}`);
  console.log(`TTFB of /api/sl/info/{id} from the edge cache: ${await measure(`${server.url}/api/sl/info/${id}`)}`);
  console.log(`  answered every time (?fresh): ${await measure(`${server.url}/api/sl/info/${id}?fresh=1`)}`);
  // The floor: the same server answering a route that touches neither D1 nor the renderer.
  console.log(`For scale, TTFB of /api/version on the same server: ${await measure(`${server.url}/api/version`)}`);

  const html = Buffer.from(await (await fetch(page)).arrayBuffer());
  const urls = new Set([...html.toString().matchAll(/<(?:script|link)[^>]+(?:src|href)="([^"]+\.(?:js|css))"/g)].map((m) => m[1]));
  let js = 0,
    css = 0;
  for (const u of urls) {
    const gz = gzipSync(Buffer.from(await (await fetch(new URL(u, server.url))).arrayBuffer())).length;
    if (u.endsWith(".css")) css += gz;
    else js += gz;
  }
  const htmlGz = gzipSync(html).length;
  console.log(
    `Page transfer without the media (gzipped): ${kib(htmlGz + css + js)} = HTML ${kib(htmlGz)} + CSS ${kib(css)} + JS ${kib(js)} in ${urls.size} files (aim < 100 KB)`,
  );
  console.log(`Without the app's JavaScript (JS off, or the root honouring handle.hydrate === false): ${kib(htmlGz + css)}`);
} finally {
  server.stop();
}
