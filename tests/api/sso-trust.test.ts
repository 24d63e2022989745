import { env } from "cloudflare:test";
import { count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ssoLinks, users } from "../../db/schema";
import { getDb } from "../../functions/lib/db";
import { api, createUser, login } from "./helpers";
import { fakeIdp, signInVia, ssoEnv, type FakeIdp } from "./sso.helpers";

/**
 * What a provider's token is trusted with: never an admin's account by e-mail, never a login from a claim
 * the provider does not vouch for, and only the people its allowlist names (allowed_domains, required_claim).
 */

let idp: FakeIdp;
beforeAll(async () => {
  await login();
  idp = await fakeIdp();
});

const db = () => getDb(env);
const uniqSub = () => `sub-${crypto.randomUUID()}`;
const userCount = async () => (await db().select({ n: count() }).from(users).get())!.n;
const linkOf = (sub: string) => db().select().from(ssoLinks).where(eq(ssoLinks.subject, sub)).get();

/** Signs in; answers the user it reached (whoami) or the refusal's reason. */
async function signIn(e: ReturnType<typeof ssoEnv>, claims: Record<string, unknown>) {
  const { landing } = await signInVia(e, idp, claims);
  const reason = landing.searchParams.get("sso_error");
  if (reason) return { reason };
  const res = await api("/api/auth/exchange-token", { env: e, method: "POST", json: { token: landing.searchParams.get("token") } });
  const { bearer } = (await res.json()) as { bearer: string };
  const who = (await (await api("/api/auth/whoami", { env: e, bearer: bearer })).json()) as {
    id: string;
    login: string;
    name: string;
    is_admin: boolean;
  };
  return { who };
}

/** Signs in expecting a refusal for `reason`: no user and no link is created. */
async function expectRefused(e: ReturnType<typeof ssoEnv>, claims: { sub: string } & Record<string, unknown>, reason: string) {
  const before = await userCount();
  expect(await signIn(e, claims)).toEqual({ reason });
  expect(await userCount()).toBe(before);
  expect(await linkOf(claims.sub)).toBeUndefined();
}

describe("linking by e-mail", () => {
  it("never takes over an admin's account, even with a verified address", async () => {
    const email = `boss-${crypto.randomUUID()}@corp.test`;
    const adminId = await createUser({ login: email, password: "admins-own-password", isAdmin: true });
    const e = ssoEnv(idp, { link_by_email: true });
    await expectRefused(e, { sub: uniqSub(), email, email_verified: true }, "admin_by_email");
    expect(await db().select().from(ssoLinks).where(eq(ssoLinks.userId, adminId)).all()).toEqual([]);
    // An ordinary user with a verified address is still linked, as before.
    const plain = `staff-${crypto.randomUUID()}@corp.test`;
    const plainId = await createUser({ login: plain, password: "staff-password" });
    expect((await signIn(e, { sub: uniqSub(), email: plain, email_verified: true })).who?.id).toBe(plainId);
  });

  it("the refusal has its own Russian text on the sign-in page", async () => {
    const { ru } = await import("../../app/i18n/ru");
    expect(ru.sso.errors.admin_by_email).toMatch(/администратор/);
    expect(ru.sso.errors.not_allowed).toBeTruthy();
  });
});

describe("the login of a new user", () => {
  it("is the verified e-mail, never preferred_username", async () => {
    const sub = uniqSub();
    const { who } = await signIn(ssoEnv(idp), {
      sub,
      email: `Ann.${sub}@Corp.test`,
      email_verified: true,
      preferred_username: "admin2",
      name: "Анна",
    });
    expect(who).toMatchObject({ login: `ann.${sub}@corp.test`, name: "Анна", is_admin: false });
  });

  it("comes from the subject when nothing is verified: an unverified e-mail or a chosen username is no login", async () => {
    for (const claims of [
      { email: "ceo@corp.test" },
      { email: "ceo@corp.test", email_verified: false },
      { email: "ceo@corp.test", email_verified: "true" },
      { preferred_username: "ceo@corp.test" },
    ]) {
      const sub = uniqSub();
      const { who } = await signIn(ssoEnv(idp), { sub, ...claims });
      expect(who?.login).toBe(`corp-${sub}`);
    }
  });

  it("shows preferred_username as the name when the token has no name", async () => {
    const sub = uniqSub();
    expect((await signIn(ssoEnv(idp), { sub, preferred_username: "ivanov" })).who).toMatchObject({ login: `corp-${sub}`, name: "ivanov" });
  });
});

describe("the provider's allowlist", () => {
  it("allowed_domains: a verified address in a listed domain only", async () => {
    const e = ssoEnv(idp, { allowed_domains: ["corp.test", "Branch.Corp.test"] });
    expect((await signIn(e, { sub: uniqSub(), email: `a-${crypto.randomUUID()}@corp.test`, email_verified: true })).who).toBeTruthy();
    expect(
      (await signIn(e, { sub: uniqSub(), email: `b-${crypto.randomUUID()}@branch.corp.test`, email_verified: true })).who,
    ).toBeTruthy();
    await expectRefused(e, { sub: uniqSub(), email: "c@corp.test" }, "not_allowed");
    await expectRefused(e, { sub: uniqSub(), email: "c@corp.test", email_verified: false }, "not_allowed");
    await expectRefused(e, { sub: uniqSub(), email: "c@elsewhere.test", email_verified: true }, "not_allowed");
    await expectRefused(e, { sub: uniqSub(), email: "c@evil-corp.test", email_verified: true }, "not_allowed");
    await expectRefused(e, { sub: uniqSub(), email: "c@sub.corp.test", email_verified: true }, "not_allowed");
    await expectRefused(e, { sub: uniqSub() }, "not_allowed");
  });

  it("required_claim: 'claim=value' and 'claim', the admin_claim syntax", async () => {
    const byGroup = ssoEnv(idp, { required_claim: "groups=mam-users" });
    expect((await signIn(byGroup, { sub: uniqSub(), groups: ["staff", "mam-users"] })).who).toBeTruthy();
    await expectRefused(byGroup, { sub: uniqSub(), groups: ["staff"] }, "not_allowed");
    // admin_claim would make this one an admin: refused all the same, nothing created.
    await expectRefused(byGroup, { sub: uniqSub(), groups: ["mam-admins"] }, "not_allowed");
    const byFlag = ssoEnv(idp, { required_claim: "mam_access" });
    expect((await signIn(byFlag, { sub: uniqSub(), mam_access: true })).who).toBeTruthy();
    await expectRefused(byFlag, { sub: uniqSub(), mam_access: "yes" }, "not_allowed");
  });

  it("both set: both must hold; and a linked user who no longer satisfies them is refused too", async () => {
    const e = ssoEnv(idp, { allowed_domains: ["corp.test"], required_claim: "groups=mam-users" });
    const sub = uniqSub();
    const email = `d-${crypto.randomUUID()}@corp.test`;
    await expectRefused(e, { sub: uniqSub(), email, email_verified: true, groups: [] }, "not_allowed");
    await expectRefused(e, { sub: uniqSub(), email: "d@other.test", email_verified: true, groups: ["mam-users"] }, "not_allowed");
    const { who } = await signIn(e, { sub, email, email_verified: true, groups: ["mam-users"] });
    expect(who?.login).toBe(email);
    expect(await signIn(e, { sub, email, email_verified: true, groups: [] })).toEqual({ reason: "not_allowed" });
    // The link stays: the allowlist decides each sign-in, it does not delete anyone.
    expect((await linkOf(sub))?.userId).toBe(who?.id);
  });
});
