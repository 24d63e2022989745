import { copyFileSync, openSync, writeSync, closeSync } from "node:fs";
import { createClient } from "@libsql/client";
import { env } from "cloudflare:test";
import { afterEach, expect, it } from "vitest";
import { READ_ONLY_MESSAGE } from "../../functions/lib/errors";
import { admin, call, mkGroup, uniq, VIRTUAL_ROOT } from "../api/fixtures";

/**
 * A database file that takes no writes (SQLite's own read-only flag: a file format write version above 2, which
 * every SQLite honours, root or not): reads answer as before, writes a clear 503, and nothing else breaks.
 */
const writable = env.LIBSQL_URL as string;
afterEach(() => {
  env.LIBSQL_URL = writable;
});

async function readOnlyCopy(): Promise<string> {
  const file = writable.slice("file:".length);
  const client = createClient({ url: writable });
  await client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  client.close();
  const copy = `${file}.read-only.db`;
  copyFileSync(file, copy);
  const fd = openSync(copy, "r+");
  writeSync(fd, Buffer.from([3]), 0, 1, 18);
  closeSync(fd);
  return `file:${copy}`;
}

it("reads keep working and writes answer 503 with a clear message when the database is read-only", async () => {
  const bearer = await admin();
  const name = uniq();
  const group = await mkGroup(VIRTUAL_ROOT, name);
  env.LIBSQL_URL = await readOnlyCopy();

  const read = await call(`/api/group/get/${group}`, { bearer });
  expect(read.status).toBe(200);
  expect(read.body.group_name).toBe(name);

  const write = await call("/api/group/create", { method: "POST", bearer, json: { parent: VIRTUAL_ROOT, group_name: uniq() } });
  expect(write.status).toBe(503);
  expect(write.body.error).toMatchObject({ code: "unavailable", message: READ_ONLY_MESSAGE });

  env.LIBSQL_URL = writable;
  expect((await call("/api/group/create", { method: "POST", bearer, json: { parent: VIRTUAL_ROOT, group_name: uniq() } })).status).toBe(
    200,
  );
});
