import Papa from "papaparse";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { events } from "../../db/schema";
import { EXPORT_BATCH } from "../../shared/events/schemas";
import { admin, call, db, mkGroup, mkPerson, uniq, VIRTUAL_ROOT } from "./fixtures";

/** GET /api/global-events/export (docs/decisions/044-metrics-logs-errors.md): a time range as CSV or NDJSON, admins only. */

const exportOf = async (query: string, bearer?: string) =>
  call(`/api/global-events/export?${query}`, { bearer: bearer ?? (await admin()) });

// A range of its own in the past, so other tests' events never fall in it.
const base = 1_000_000_000 + Math.floor(Math.random() * 1_000_000) * 10;
let groupId: string;

beforeAll(async () => {
  groupId = await mkGroup(VIRTUAL_ROOT, uniq("Выгрузка"));
  // Enough rows for two batches, on three seconds, written in one statement (D1 binds at most 100 values).
  const n = EXPORT_BATCH + 500;
  await db().run(sql`INSERT INTO events (event_id, ctime, kind, entity_type, entity_id, data)
    WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ${n - 1})
    SELECT lower(hex(randomblob(16))), ${base} + i % 3, CASE WHEN i % 2 THEN 'group.updated' ELSE 'asset.created' END,
      'group', ${groupId}, json_object('n', i) FROM s`);
  // One with a cell a spreadsheet would run as a formula.
  await db()
    .insert(events)
    .values({
      eventId: crypto.randomUUID(),
      ctime: base + 5,
      kind: "group.updated",
      entityType: "group",
      entityId: "=HYPERLINK(1)",
      data: { n: -1 },
    });
});

describe("GET /api/global-events/export", () => {
  it("streams the range as CSV, oldest first, every event once across batches", async () => {
    const r = await exportOf(`format=csv&from=${base}&to=${base + 10}`);
    expect(r.status).toBe(200);
    expect(r.text.startsWith("\uFEFFevent_id,time,kind,user_id,user_name,entity_type,entity_id,data")).toBe(true);
    const rows = Papa.parse<string[]>(r.text.slice(1).trim()).data.slice(1);
    expect(rows).toHaveLength(EXPORT_BATCH + 501);
    expect(new Set(rows.map((row) => row[0])).size).toBe(rows.length);
    const times = rows.map((row) => Date.parse(row[1]));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(rows.at(-1)?.[6]).toBe("'=HYPERLINK(1)");
  });

  it("answers NDJSON with the data as objects, and filters by kind prefixes", async () => {
    const r = await exportOf(`format=ndjson&from=${base}&to=${base + 1}&kinds=asset`);
    expect(r.status).toBe(200);
    const lines = r.text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => l.kind === "asset.created" && l.time >= base && l.time <= base + 1)).toBe(true);
    expect(typeof lines[0].data.n).toBe("number");
    const both = await exportOf(`format=ndjson&from=${base}&to=${base + 10}&kinds=asset,group.updated`);
    expect(both.text.trim().split("\n")).toHaveLength(EXPORT_BATCH + 501);
  });

  it("names the field of bad input", async () => {
    const fieldOf = async (q: string) => {
      const r = await exportOf(q);
      expect(r.status).toBe(400);
      return r.body.error.details.map((d: { field: string }) => d.field);
    };
    expect(await fieldOf(`format=xml&from=${base}&to=${base}`)).toEqual(["format"]);
    expect(await fieldOf(`format=csv&to=${base}`)).toEqual(["from"]);
    expect(await fieldOf(`format=csv&from=yesterday&to=${base}`)).toEqual(["from"]);
    expect(await fieldOf(`format=csv&from=${base + 1}&to=${base}`)).toEqual(["to"]);
    expect(await fieldOf(`format=csv&from=${base}&to=${base}&kinds=DROP TABLE`)).toEqual(["kinds"]);
  });

  it("is for admins only", async () => {
    const user = await mkPerson();
    expect((await exportOf(`format=csv&from=${base}&to=${base}`, user.bearer)).status).toBe(403);
    expect((await call(`/api/global-events/export?format=csv&from=${base}&to=${base}`)).status).toBe(401);
  });
});
