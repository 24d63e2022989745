import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../../db/schema";
import { getDb } from "../../functions/lib/db";
import { passwordCost } from "../../functions/lib/password";
import { fixturePasswordCost } from "../shared/password";
import { admin, call, uniq } from "./fixtures";
import { api, createUser } from "./helpers";

/**
 * Test accounts store cheap scrypt hashes (tests/shared/password.ts); the cost is read from each hash, so
 * they sign in through the real code. The Worker itself hashes every password it stores at the production
 * cost of docs/decisions/002-password-hashing.md, whatever the hashes already stored say.
 */
const costOf = (hash: string) => hash.split("$").slice(0, 4).join("$");
const production = `scrypt$${passwordCost.N}$${passwordCost.r}$${passwordCost.p}`;
const hashOf = async (userId: string) => (await getDb(env).select().from(users).where(eq(users.userId, userId)).get())!.passwdHash!;
const signIn = (user: string, passwd: string) => api("/api/auth/login", { method: "POST", json: { user, passwd } });

describe("password hashes of test accounts and of the Worker", () => {
  it("the production cost is OWASP's 16 MiB scrypt, and the fixtures' is far below it", () => {
    expect(passwordCost).toEqual({ N: 2 ** 14, r: 8, p: 5 });
    expect(fixturePasswordCost.N * fixturePasswordCost.p).toBeLessThan(passwordCost.N * passwordCost.p);
  });

  it("a user with a cheap hash signs in with the right password only", async () => {
    const login = uniq("cheap").toLowerCase();
    const id = await createUser({ login, password: "cheap-password-1" });
    expect(costOf(await hashOf(id))).toBe(`scrypt$${fixturePasswordCost.N}$${fixturePasswordCost.r}$${fixturePasswordCost.p}`);
    expect((await signIn(login, "cheap-password-1")).status).toBe(200);
    expect((await signIn(login, "cheap-password-2")).status).toBe(401);
  });

  it("a user the admin creates, and a password the admin changes, are hashed at the production cost", async () => {
    const login = uniq("made").toLowerCase();
    const made = await call("/api/user", {
      method: "POST",
      json: { user_name: "Сделан", user_login: login, user_passwd: "made-password-1", enabled: true },
      bearer: await admin(),
    });
    expect(made.status).toBe(200);
    expect(costOf(await hashOf(made.body.user_id))).toBe(production);

    const cheap = await createUser({ login: uniq("was-cheap").toLowerCase(), password: "cheap-password-1" });
    const changed = await call(`/api/user/${cheap}`, { method: "PATCH", json: { user_passwd: "new-password-1" }, bearer: await admin() });
    expect(changed.status).toBe(200);
    expect(costOf(await hashOf(cheap))).toBe(production);
  });
});
