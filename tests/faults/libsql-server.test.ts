import { rmSync } from "node:fs";
import { createClient } from "@libsql/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { benchAdmin, migratedDataDir, startServer, startSqld } from "../bench/server.mjs";

/**
 * The Worker in workerd with LIBSQL_URL on a real libSQL server (sqld), as a Turso deployment runs it
 * (docs/decisions/049): the whole request path through @libsql/client/web, with many requests at once — a client
 * kept across requests hangs them there, which the in-Node libSQL suites cannot see.
 */
const { dataDir, file } = migratedDataDir("mam-libsql-server-");
let sqld: Awaited<ReturnType<typeof startSqld>>;
let server: Awaited<ReturnType<typeof startServer>>;

beforeAll(async () => {
  sqld = await startSqld(file);
  server = await startServer({ dataDir, env: { LIBSQL_URL: sqld.url } });
});
afterAll(async () => {
  await server?.stop();
  await sqld?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function call(p: string, bearer: string | null, json?: unknown) {
  const res = await fetch(server.url + p, {
    method: json === undefined ? "GET" : "POST",
    headers: { "Content-Type": "application/json", ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await res.text();
  // workerd's own answer to a hung request is plain text: keep it readable in a failure.
  return { status: res.status, body: res.headers.get("Content-Type")?.includes("json") ? JSON.parse(text) : text };
}

describe("the Worker on a libSQL server", () => {
  it("serves many requests at once from the libSQL database, and writes land there, not in the local D1", async () => {
    const login = await call("/api/auth/login", null, benchAdmin);
    expect(login.status).toBe(200);
    const bearer = login.body.bearer as string;
    const names = Array.from({ length: 20 }, (_, i) => `Папка на libSQL ${i}`);
    const answers = await Promise.all([
      ...names.map((group_name) => call("/api/group/create", bearer, { parent: "ffffffff-ffff-ffff-ffff-ffffffffffff", group_name })),
      ...names.map(() => call("/api/auth/whoami", bearer)),
      ...names.map(() => call("/api/group/acl-roots", bearer)),
    ]);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));

    const onServer = createClient({ url: sqld.url });
    const rows = await onServer.execute("SELECT group_name FROM groups WHERE group_name LIKE 'Папка на libSQL %'");
    expect(rows.rows.map((r) => r.group_name).sort()).toEqual([...names].sort());
    onServer.close();
    const local = createClient({ url: `file:${file}` });
    const localRows = await local.execute("SELECT count(*) AS n FROM groups WHERE group_name LIKE 'Папка на libSQL %'");
    expect(Number(localRows.rows[0].n)).toBe(0);
    local.close();
  });
});
