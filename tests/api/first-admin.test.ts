import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { events, users } from "../../db/schema";
import { getDb } from "../../functions/lib/db";
import type { Env } from "../../functions/lib/env";
import { api } from "./helpers";

/**
 * The first admin on an empty database with no ADMIN_PASSWORD (functions/auth/bootstrap.ts): the generated
 * password is printed once to the terminal and is nowhere else, least of all in the events list.
 * The admin every test file starts with (setup.ts) is removed first, so this file's first request is the
 * one that finds the database empty.
 */
describe("the first admin with a generated password", () => {
  it("is printed once to the terminal; the event row says it was generated and holds no password", async () => {
    await getDb(env).delete(users);
    const printed = vi.spyOn(console, "log").mockImplementation(() => undefined);
    let lines: string[];
    try {
      const noPassword = { ...(env as unknown as Env), ADMIN_PASSWORD: undefined };
      expect((await api("/api/health", { env: noPassword })).status).toBe(200);
      expect((await api("/api/version", { env: noPassword })).status).toBe(200);
      lines = printed.mock.calls.map((args) => args.map(String).join(" "));
    } finally {
      printed.mockRestore();
    }
    const announced = lines.filter((l) => l.startsWith("First admin created"));
    expect(announced).toHaveLength(1);
    const password = /password "([^"]+)"/.exec(announced[0])![1];
    expect(password.length).toBeGreaterThanOrEqual(16);

    const admin = (await getDb(env).select().from(users).where(eq(users.login, "admin")).get())!;
    expect(admin.isAdmin).toBe(true);
    expect(admin.passwdHash).toMatch(/^scrypt\$16384\$8\$5\$/);
    const created = await getDb(env).select().from(events).where(eq(events.entityId, admin.userId)).all();
    expect(created.map((e) => [e.kind, e.data])).toEqual([
      ["user.created", { login: "admin", is_admin: true, first_admin: true, password: "generated" }],
    ]);
    const everyEvent = JSON.stringify(await getDb(env).select().from(events).all());
    expect(everyEvent).not.toContain(password);

    // The printed password is the one that works.
    expect((await api("/api/auth/login", { method: "POST", json: { user: "admin", passwd: password } })).status).toBe(200);
  });
});
