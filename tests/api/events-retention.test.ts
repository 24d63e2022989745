import { env } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { events } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { pruneEvents } from "../../functions/events/retention";
import { idList } from "../../functions/lib/sql";
import type { Env } from "../../functions/lib/env";
import { db } from "./fixtures";
import { api } from "./helpers";

/** Retention (docs/decisions/043-events-list.md): the cron deletes events older than EVENTS_RETENTION_DAYS, in batches. */

const day = 86400;
const seed = async (ages: number[]) => {
  const now = nowSeconds();
  const rows = ages.map((age, i) => ({ eventId: crypto.randomUUID(), ctime: now - age, kind: `test.retention.${i}`, userId: null }));
  for (let i = 0; i < rows.length; i += 20)
    await db()
      .insert(events)
      .values(rows.slice(i, i + 20));
  return rows.map((r) => r.eventId);
};
const remaining = async (ids: string[]) =>
  (
    await db()
      .select({ id: events.eventId })
      .from(events)
      .where(sql`${events.eventId} IN ${idList(ids)}`)
  ).map((r) => r.id);

describe("events retention", () => {
  it("deletes what is older than the setting and keeps the rest; unset keeps everything", async () => {
    const old = await seed(Array.from({ length: 120 }, () => 40 * day));
    const recent = await seed([5 * day, 10, 0]);
    expect(await pruneEvents(db(), {})).toBe(0);
    expect(await remaining(old)).toHaveLength(120);

    expect(await pruneEvents(db(), { EVENTS_RETENTION_DAYS: "30" })).toBeGreaterThanOrEqual(120);
    expect(await remaining(old)).toEqual([]);
    expect((await remaining(recent)).sort()).toEqual([...recent].sort());
  });

  it("a retention that is not a whole number of days is refused like any wrong variable", async () => {
    const res = await api("/api/health", { env: { ...(env as unknown as Env), EVENTS_RETENTION_DAYS: "a month" } });
    expect(res.status).toBe(500);
  });
});
