/**
 * The WOPI host against `npm start` (docs/decisions/046-wopi.md), as an office client calls it, for a 10 MB
 * document: PutFile (a new version through the upload pipeline), then CheckFileInfo p50/p95 and GetFile
 * p50/p95 with its throughput. Aims: CheckFileInfo and GetFile p95 < 20 ms, GetFile >= 200 MB/s locally.
 * BENCH_SIZE_MB and BENCH_RUNS override the defaults. Prints figures; never fails on time.
 */
import { benchAdmin, benchApi, countBytes, ms, percentile, startServer, timer } from "./server.mjs";

const SIZE = Number(process.env.BENCH_SIZE_MB ?? 10) * 1024 * 1024;
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const PUTS = 5;
const mbps = (bytes, msTaken) => `${(bytes / 1024 / 1024 / (msTaken / 1000)).toFixed(0)} MB/s`;

const server = await startServer();
try {
  const { post } = benchApi(server.url);
  const bearer = (await post("/api/auth/login", null, benchAdmin)).bearer;
  const { asset_id } = await post("/api/asset/create", bearer, {
    asset_name: "Бенчмарк.docx",
    asset_mime: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  });
  const token = await post(`/api/wopi/token/${asset_id}`, bearer, {});
  const file = (suffix = "") => `${server.url}/api/wopi/files/${asset_id}${suffix}?access_token=${encodeURIComponent(token.access_token)}`;
  const data = new Uint8Array(SIZE).map((_, i) => (i * 31) % 251);

  const wopi = async (suffix, headers, body) => {
    const res = await fetch(file(suffix), { method: "POST", headers, body });
    if (!res.ok) throw new Error(`${headers["X-WOPI-Override"]}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    return res;
  };
  const put = (lock) => wopi("/contents", { "X-WOPI-Override": "PUT", ...(lock ? { "X-WOPI-Lock": lock } : {}) }, data);

  // The first save of an empty document goes unlocked; then under a lock, as an editor saves.
  let t = performance.now();
  await put(null);
  const first = performance.now() - t;
  await wopi("", { "X-WOPI-Override": "LOCK", "X-WOPI-Lock": "bench" });
  const puts = [];
  for (let i = 0; i < PUTS; i++) {
    t = performance.now();
    await put("bench");
    puts.push(performance.now() - t);
  }
  const p50put = percentile(puts, 50);
  console.log(
    `PutFile ${SIZE / 1024 / 1024} MB             first ${ms(first)}  p50 ${ms(p50put)} (${mbps(SIZE, p50put)})  over ${PUTS} saves`,
  );

  const time = timer(RUNS, 34);
  // The yardstick on this machine right now: the lightest signed-in call (one session lookup).
  await time(`reference: whoami (${RUNS} calls)`, async () => {
    const res = await fetch(`${server.url}/api/auth/whoami`, { headers: { Authorization: `Bearer ${bearer}` } });
    return res.json();
  });
  await time(`CheckFileInfo (${RUNS} calls)`, async () => {
    const res = await fetch(file());
    if (!res.ok) throw new Error(`CheckFileInfo: ${res.status}`);
    return res.json();
  });
  const gets = [];
  for (let i = 0; i < RUNS + 5; i++) {
    const t0 = performance.now();
    const r = await countBytes(file("/contents"));
    if (r.status !== 200 || r.bytes !== SIZE) throw new Error(`GetFile: ${r.status}, ${r.bytes} bytes`);
    if (i >= 5) gets.push(performance.now() - t0);
  }
  const p50 = percentile(gets, 50);
  const p95 = percentile(gets, 95);
  console.log(
    `${`GetFile ${SIZE / 1024 / 1024} MB (${RUNS} calls)`.padEnd(34)} p50 ${ms(p50)}  p95 ${ms(p95)}  (${mbps(SIZE, p50)} at p50, ${mbps(SIZE, p95)} at p95)`,
  );
  await wopi("", { "X-WOPI-Override": "UNLOCK", "X-WOPI-Lock": "bench" });
} finally {
  await server.stop();
}
