import { env } from "cloudflare:test";
import { and, eq, like, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { events, loginAttempts } from "../../db/schema";
import { getDb } from "../../functions/lib/db";
import { adminCredentials, api, createUser, errorOf, freshIp, login } from "./helpers";

/**
 * Sign-in throttling (functions/auth/rate-limit.ts): every attempt is counted before the password is
 * checked, the login waits progressively (short), the address (an IPv6 /64 as one) has a hard limit.
 * The clock is real; a test moves a login's last failure into the past by editing its row's window_ends.
 */

const db = () => getDb(env);
const attempt = (user: string, passwd: string, ip = freshIp()) => api("/api/auth/login", { method: "POST", json: { user, passwd }, ip });
const message = "Слишком много неудачных попыток входа. Повторите позже.";

/** The login's last failure `seconds` earlier than recorded (its row: window_ends = last failure + 15 min). */
async function rewind(login: string, seconds: number) {
  await db()
    .update(loginAttempts)
    .set({ windowEnds: sql`${loginAttempts.windowEnds} - ${seconds}` })
    .where(eq(loginAttempts.key, `login:${login}`));
}

// The first request on an empty database creates the admin; make it before any other user exists.
beforeAll(() => login());

function statuses(list: Response[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const r of list) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}

describe("one login", () => {
  it("200 parallel wrong passwords: no more than five are even checked; the right one waits, then works", async () => {
    await createUser({ login: "parallel-victim", password: "the-right-password" });
    const started = Date.now();
    const all = await Promise.all(Array.from({ length: 200 }, (_, i) => attempt("parallel-victim", `guess-${i}`)));
    const counts = statuses(all);
    expect(counts[401] ?? 0).toBeGreaterThanOrEqual(1);
    // Five free failures; a sixth is due 8 s after the fifth, a seventh 16 s after that. On a machine slow enough
    // for the burst to outlast those waits, the rule itself lets those few be checked.
    const seconds = (Date.now() - started) / 1000;
    expect(counts[401]).toBeLessThanOrEqual(5 + [8, 24, 56].filter((due) => seconds >= due).length);
    expect((counts[401] ?? 0) + (counts[429] ?? 0)).toBe(200);
    const checked = await db()
      .select()
      .from(events)
      .where(and(eq(events.kind, "auth.login_failed"), like(events.data, '%"parallel-victim"%')))
      .all();
    expect(checked.length).toBe(counts[401]);

    const refused = all.find((r) => r.status === 429)!;
    expect((await errorOf(refused)).message).toBe(message);
    // A wait of seconds, not the quarter of an hour of a lockout.
    const wait = Number(refused.headers.get("Retry-After"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);

    const locked = await attempt("parallel-victim", "the-right-password");
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(0);

    await rewind("parallel-victim", 60);
    expect((await attempt("parallel-victim", "the-right-password")).status).toBe(200);
    // A success starts the login afresh.
    expect(await db().select().from(loginAttempts).where(eq(loginAttempts.key, "login:parallel-victim")).get()).toBeUndefined();
  }, 60_000);

  it("waits longer after each failure past the fifth: 8 s, then 16 s", async () => {
    await createUser({ login: "slow-victim", password: "the-right-password" });
    for (let i = 0; i < 5; i++) expect((await attempt("slow-victim", `guess-${i}`)).status).toBe(401);
    const first = await attempt("slow-victim", "the-right-password");
    expect(first.status).toBe(429);
    expect(Number(first.headers.get("Retry-After"))).toBeGreaterThan(6);
    expect(Number(first.headers.get("Retry-After"))).toBeLessThanOrEqual(8);

    await rewind("slow-victim", 8);
    expect((await attempt("slow-victim", "guess-5")).status).toBe(401);
    const second = await attempt("slow-victim", "the-right-password");
    expect(second.status).toBe(429);
    expect(Number(second.headers.get("Retry-After"))).toBeGreaterThan(14);
    expect(Number(second.headers.get("Retry-After"))).toBeLessThanOrEqual(16);
  }, 30_000);

  it("a stranger's address is stopped at its limit, and then cannot keep the owner waiting", async () => {
    await createUser({ login: "owner", password: "owners-password" });
    const stranger = freshIp();
    for (let i = 0; i < 5; i++) expect((await attempt("owner", `guess-${i}`, stranger)).status).toBe(401);
    // Refused while the owner's login waits, and each try spends the stranger's address budget.
    const hammering = await Promise.all(Array.from({ length: 25 }, (_, i) => attempt("owner", `more-${i}`, stranger)));
    expect(statuses(hammering)).toEqual({ 429: 25 });
    await rewind("owner", 60);
    // The wait is over, but the stranger's address is past its limit: refused, and the login's count is untouched.
    expect((await attempt("owner", "guess-again", stranger)).status).toBe(429);
    expect((await db().select().from(loginAttempts).where(eq(loginAttempts.key, "login:owner")).get())?.failures).toBe(5);
    expect((await attempt("owner", "owners-password")).status).toBe(200);
  }, 60_000);
});

describe("one address", () => {
  it("two addresses of one IPv6 /64 are counted together; the next /64 apart", async () => {
    const spray = (ip: string, n: number, tag: string) =>
      Promise.all(Array.from({ length: n }, (_, i) => attempt(`spray-${tag}-${i}`, "x", ip)));
    expect(statuses(await spray("2001:db8:aa:1::1", 15, "a"))).toEqual({ 401: 15 });
    expect(statuses(await spray("2001:0db8:00aa:0001:ffff:1:2:3", 15, "b"))).toEqual({ 401: 15 });
    // The 31st attempt from that /64, even with the right password, is refused …
    const blocked = await attempt(adminCredentials.user, adminCredentials.passwd, "2001:db8:aa:1:abcd::9");
    expect(blocked.status).toBe(429);
    expect((await errorOf(blocked)).message).toBe(message);
    expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThan(60);
    // … while the next /64 is not.
    expect((await attempt(adminCredentials.user, adminCredentials.passwd, "2001:db8:aa:2::1")).status).toBe(200);
  }, 60_000);

  it("successful sign-ins give their attempt back: an office behind one address is never stopped by them", async () => {
    await createUser({ login: "office-user", password: "office-password" });
    const office = freshIp();
    for (let i = 0; i < 31; i++) expect((await attempt("office-user", "office-password", office)).status).toBe(200);
  }, 60_000);
});
