/**
 * Automations under load (docs/decisions/047-automations.md): COUNT uploads (default 1,000; `npm run bench
 * automations 200` for fewer) into a group watched by "add a tag, create a share link, call a webhook", 8 at a
 * time through the client protocol. Prints whether every run finished, runs per minute, the latency from an
 * upload's completion (its answer) to its run's first step (p50/p95; aim p95 < 2 s), and duplicate effects
 * (share links, tag events and webhook deliveries more than once per upload: must be 0), and where the latency lies
 * (upload to run inserted: the dispatcher; inserted to first step: the queue or the invocation that runs it). The files are
 * application/octet-stream, which starts no transcoding task, so the figures are the automations' own.
 */
import { createServer } from "node:http";
import { readdirSync } from "node:fs";
import path from "node:path";
import { createClient } from "@libsql/client";
import { benchAdmin, benchApi, ms, percentile, startServer } from "./server.mjs";

const COUNT = Number(process.argv[3] ?? process.env.BENCH_UPLOADS ?? 1000);
const PARALLEL = Number(process.env.BENCH_PARALLEL ?? 8);
const bytes = new Uint8Array(2048).map((_, i) => (i * 31) % 256);

// The webhook receiver: counts deliveries by webhook-id (the run and step), so a repeat shows.
const deliveries = new Map();
const receiver = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    const id = String(req.headers["webhook-id"]);
    deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
    res.end("ok");
  });
});
await new Promise((resolve) => receiver.listen(0, "127.0.0.1", () => resolve(undefined)));
const hookUrl = `http://127.0.0.1:${/** @type {import("node:net").AddressInfo} */ (receiver.address()).port}/hook`;

/** fetch, again (up to 5 times) when a kept-alive socket turns out closed (the local server drops some; tests/shared/fetch-fresh.ts). */
const realFetch = globalThis.fetch;
globalThis.fetch = async (url, init) => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await realFetch(url, init);
    } catch (err) {
      const code = /** @type {{ cause?: { code?: string } }} */ (err).cause?.code;
      if ((code !== "UND_ERR_SOCKET" && code !== "ECONNRESET") || attempt === 5) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
};

const server = await startServer();
try {
  const { call, post } = benchApi(server.url);
  const bearer = (await post("/api/auth/login", null, benchAdmin)).bearer;
  const group = (
    await post("/api/group/create", bearer, { parent: "ffffffff-ffff-ffff-ffff-ffffffffffff", group_name: "Бенч автоматизаций" })
  ).group_id;
  const tag = (await post("/api/tags/create", bearer, { tag_name: `Бенч ${Date.now()}` })).tag_id;
  const wf = (await post("/api/udwf/workflow", bearer, { name: "Бенч: тег, ссылка, вебхук" })).workflow_id;
  await call(`/api/udwf/workflow-setup/${wf}`, bearer, {
    method: "PATCH",
    body: JSON.stringify({
      trigger: { type: "asset.uploaded", group_id: group },
      steps: [
        { action: "tag.add", params: { tag_id: tag } },
        { action: "share-link.create", params: { acl: ["view"], days: 7 } },
        { action: "webhook.call", params: { url: hookUrl } },
      ],
    }),
  });
  await post(`/api/udwf/workflow-enable-disable/${wf}`, bearer, { enabled: true });

  /** Upload i: create, start, targets, PUT, part, complete; answers the asset and when complete answered (ms). */
  const upload = async (i) => {
    const name = `file-${i}.bin`;
    const { asset_id } = await post("/api/asset/create", bearer, {
      asset_name: name,
      asset_mime: "application/octet-stream",
      in_group: group,
    });
    const up = await post("/api/ul/start", bearer, { asset_id, size: bytes.length, name, mime: "application/octet-stream" });
    const [target] = await post(`/api/ul/${up.upload_id}/targets`, bearer, { parts: [1] });
    const put = await fetch(new URL(target.url, server.url), {
      method: "PUT",
      body: bytes,
      headers: { Authorization: `Bearer ${bearer}` },
    });
    if (!put.ok) throw new Error(`PUT: ${put.status} ${await put.text()}`);
    await put.arrayBuffer();
    await post(`/api/ul/${up.upload_id}/parts/1`, bearer, { etag: put.headers.get("ETag") });
    await post(`/api/ul/${up.upload_id}/complete`, bearer, {});
    return { asset: asset_id, completedAt: Date.now() };
  };

  const t0 = Date.now();
  const done = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < COUNT) done.push(await upload(next++));
    }),
  );
  const uploadSeconds = (Date.now() - t0) / 1000;

  const d1dir = path.join(server.dataDir, "v3/d1/miniflare-D1DatabaseObject");
  const db = createClient({
    url: `file:${path.join(d1dir, readdirSync(d1dir).find((f) => f.endsWith(".sqlite")) ?? "")}`,
  });
  const q = async (sql, args = []) => (await db.execute({ sql, args })).rows;
  // Five minutes for the runs to drain after the last upload; what is left then is reported as not finished.
  const deadline = Date.now() + 5 * 60_000;
  let finished = 0;
  while (Date.now() < deadline) {
    finished = Number(
      (await q("SELECT COUNT(*) AS n FROM udwf_runs WHERE workflow_id = ? AND status IN ('done', 'failed', 'stopped')", [wf]))[0].n,
    );
    if (finished >= COUNT) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const runs = await q(
    "SELECT json_extract(input, '$.entity.id') AS asset, status, ctime, first_step_at AS first, finished_at AS fin FROM udwf_runs WHERE workflow_id = ?",
    [wf],
  );
  const lastFinish = Math.max(...runs.map((r) => Number(r.fin ?? 0))) * 1000;
  const byAsset = new Map(done.map((d) => [d.asset, d.completedAt]));
  const latencies = runs.filter((r) => r.first !== null && byAsset.has(r.asset)).map((r) => Number(r.first) - byAsset.get(r.asset));
  // Where the time goes: from the upload's answer to its run's insert (the dispatcher; the run's ctime is in whole
  // seconds, so this is ±1 s), and from the insert to the first step (the queue and the consumer).
  const toInsert = runs.filter((r) => byAsset.has(r.asset)).map((r) => Number(r.ctime) * 1000 - byAsset.get(r.asset));
  const toStep = runs.filter((r) => r.first !== null).map((r) => Number(r.first) - Number(r.ctime) * 1000);
  const okRuns = runs.filter((r) => r.status === "done").length;
  const dupLinks = Number(
    (await q("SELECT COUNT(*) AS n FROM (SELECT asset_id FROM share_links GROUP BY asset_id HAVING COUNT(*) > 1)"))[0].n,
  );
  const dupTags = Number(
    (
      await q(
        "SELECT COUNT(*) AS n FROM (SELECT entity_id FROM events WHERE kind = 'tag.attach' AND json_extract(data, '$.udwf.workflow') = ? GROUP BY entity_id HAVING COUNT(*) > 1)",
        [wf],
      )
    )[0].n,
  );
  const dupRuns = runs.length - new Set(runs.map((r) => r.asset)).size;
  const dupHooks = [...deliveries.values()].filter((n) => n > 1).length;
  db.close();

  const minutes = (lastFinish - t0) / 60_000;
  console.log(`Uploads: ${COUNT} in ${uploadSeconds.toFixed(1)} s (${PARALLEL} at a time)`);
  console.log(
    `Runs: ${runs.length} started, ${finished} finished, ${okRuns} done${finished >= COUNT ? " — every run finished" : " — NOT all finished"}`,
  );
  console.log(`Runs per minute (first upload to last run's end): ${(runs.length / minutes).toFixed(0)}`);
  console.log(
    `Trigger-to-first-step latency: p50 ${ms(percentile(latencies, 50))}  p95 ${ms(percentile(latencies, 95))}  max ${ms(Math.max(...latencies))}`,
  );
  console.log(
    `  of which: upload to run inserted p50 ${ms(percentile(toInsert, 50))} p95 ${ms(percentile(toInsert, 95))}; inserted to first step p50 ${ms(percentile(toStep, 50))} p95 ${ms(percentile(toStep, 95))} (±1 s)`,
  );
  console.log(`Webhook deliveries: ${[...deliveries.values()].reduce((a, b) => a + b, 0)} for ${deliveries.size} run steps`);
  console.log(`Duplicate effects: runs ${dupRuns}, share links ${dupLinks}, tag events ${dupTags}, webhook deliveries ${dupHooks}`);
} finally {
  await server.stop();
  receiver.close();
}
