import { createHash, randomFillSync } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient } from "@libsql/client";
import { afterAll, describe, expect, it } from "vitest";
import { benchAdmin, startServer } from "../bench/server.mjs";

/**
 * The server killed (SIGKILL: no shutdown, nothing flushed) in the middle of work, then started again on the
 * same data: what was committed is there, what was not left no trace, and the client carries on.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), "mam-faults-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

type Server = Awaited<ReturnType<typeof startServer>>;

async function call(server: Server, p: string, bearer: string | null, init: { method?: string; json?: unknown } = {}) {
  const res = await fetch(server.url + p, {
    method: init.method ?? (init.json === undefined ? "GET" : "POST"),
    headers: { "Content-Type": "application/json", ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}) },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${p}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

const signIn = async (server: Server) => (await call(server, "/api/auth/login", null, { json: benchAdmin })).bearer as string;

/** One part, as the browser's upload worker sends it: a target, the PUT, the report. */
async function sendPart(server: Server, bearer: string, uploadId: string, part: number, bytes: Uint8Array) {
  const [target] = await call(server, `/api/ul/${uploadId}/targets`, bearer, { json: { parts: [part] } });
  const put = await fetch(target.url, {
    method: "PUT",
    body: bytes as unknown as BodyInit,
    headers: { "Content-Length": String(bytes.length) },
  });
  if (!put.ok) throw new Error(`part ${part}: ${put.status}`);
  const etag = put.headers.get("ETag");
  await put.arrayBuffer();
  await call(server, `/api/ul/${uploadId}/parts/${part}`, bearer, { json: { etag } });
}

describe("a server killed and started again", () => {
  it("resumes a 200 MB upload killed halfway, and the stored bytes are the ones sent", async () => {
    const size = 200 * 1024 * 1024;
    const data = new Uint8Array(size);
    for (let i = 0; i < size; i += 65536) randomFillSync(data, i, Math.min(65536, size - i));
    const expected = createHash("sha256").update(data).digest("hex");

    let server = await startServer({ dataDir });
    let bearer = await signIn(server);
    const { asset_id } = await call(server, "/api/asset/create", bearer, {
      json: { asset_name: "Большой.bin", asset_mime: "application/octet-stream" },
    });
    const up = await call(server, "/api/ul/start", bearer, {
      json: { asset_id, size, name: "Большой.bin", mime: "application/octet-stream", part_size: 8 * 1024 * 1024 },
    });
    const slice = (n: number) => data.subarray((n - 1) * up.part_size, Math.min(size, n * up.part_size));
    const half = Math.floor(up.part_count / 2);
    for (let n = 1; n <= half; n++) await sendPart(server, bearer, up.upload_id, n, slice(n));
    // The next part is on its way when the server dies.
    const inFlight = sendPart(server, bearer, up.upload_id, half + 1, slice(half + 1)).catch((error: Error) => error);
    await new Promise((r) => setTimeout(r, 50));
    await server.kill();
    await inFlight;

    server = await startServer({ dataDir });
    bearer = await signIn(server);
    const state = await call(server, `/api/ul/${up.upload_id}`, bearer);
    // Every part reported before the crash is held; the one in flight may or may not have been.
    expect(state.missing.every((n: number) => n > half)).toBe(true);
    expect(state.missing.length).toBeGreaterThanOrEqual(up.part_count - half - 1);
    for (const n of state.missing) await sendPart(server, bearer, up.upload_id, n, slice(n));
    await call(server, `/api/ul/${up.upload_id}/complete`, bearer, { method: "POST" });

    const download = await fetch(`${server.url}/api/asset/content/download/${asset_id}/1/initial`, {
      headers: { Authorization: `Bearer ${bearer}` },
    });
    expect(download.status).toBe(200);
    const hash = createHash("sha256");
    let received = 0;
    for await (const chunk of download.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      received += chunk.length;
    }
    expect(received).toBe(size);
    expect(hash.digest("hex")).toBe(expected);
    await server.stop();
  });

  it("killed during moves of many groups, leaves each move whole or not done: the tree checks out", async () => {
    let server = await startServer({ dataDir });
    const bearer = await signIn(server);
    const root = "ffffffff-ffff-ffff-ffff-ffffffffffff";
    const from = (await call(server, "/api/group/create", bearer, { json: { parent: root, group_name: `Откуда-${Date.now()}` } })).group_id;
    const to = (await call(server, "/api/group/create", bearer, { json: { parent: root, group_name: `Куда-${Date.now()}` } })).group_id;
    const children: string[] = [];
    for (let i = 0; i < 100; i++) {
      const child = (await call(server, "/api/group/create", bearer, { json: { parent: from, group_name: `Папка ${i}` } })).group_id;
      await call(server, "/api/group/create", bearer, { json: { parent: child, group_name: "Внутри" } });
      children.push(child);
    }
    // Moves of 100 groups (and their subgroups) back and forth, one after another, until the server is killed.
    let moves = 0;
    let stopped = false;
    const mover = (async () => {
      for (let i = 0; !stopped; i++) {
        const [a, b] = i % 2 === 0 ? [from, to] : [to, from];
        await call(server, "/api/group/move-members", bearer, {
          json: { from: a, to: b, members: children.map((el_id) => ({ el_id, el_type: "group" })) },
        });
        moves++;
      }
    })().catch(() => {});
    while (moves < 2) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 37));
    await server.kill();
    stopped = true;
    await mover;

    // The database file, read as it was left: each group sits where its parent's path says, at its depth.
    const d1dir = path.join(dataDir, "v3/d1/miniflare-D1DatabaseObject");
    const file = readdirSync(d1dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
    const db = createClient({ url: `file:${path.join(d1dir, file as string)}` });
    const broken = await db.execute(`SELECT g.group_id FROM groups g JOIN groups p ON p.group_id = g.parent_id
      WHERE g.path <> p.path || g.group_id || '/' OR g.depth <> p.depth + 1`);
    expect(broken.rows).toEqual([]);
    const places = await db.execute(
      `SELECT DISTINCT parent_id FROM groups WHERE group_id IN (${children.map((c) => `'${c}'`).join(", ")})`,
    );
    expect(places.rows).toHaveLength(1);
    db.close();

    // And the Worker, started again, agrees.
    server = await startServer({ dataDir });
    const bearer2 = await signIn(server);
    const [hereFrom, hereTo] = await Promise.all(
      [from, to].map(async (g) => (await call(server, `/api/group/members/${g}?skip=0&take=200`, bearer2)).length as number),
    );
    expect([hereFrom, hereTo].sort()).toEqual([0, 100]);
    await server.stop();
  });
});
