import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { sessions, ssoCodes, ssoLinks, users } from "../../db/schema";
import { getDb } from "../../functions/lib/db";
import { api } from "./helpers";
import { fakeIdp, ISSUER, signInVia, ssoEnv, type FakeIdp, type TokenTweaks } from "./sso.helpers";

/**
 * Every way a single sign-on can fail lands on /login?sso_error=<reason> (the page shows the Russian
 * text), hands out no code and starts no session.
 */

let idp: FakeIdp;
beforeAll(async () => {
  idp = await fakeIdp();
});

const db = () => getDb(env);
const uniqSub = () => `sub-${crypto.randomUUID()}`;
const codeCount = async () => (await db().select().from(ssoCodes).all()).length;
const sessionCount = async () => (await db().select().from(sessions).all()).length;

/** Runs `attempt`, checks it landed on /login with `reason` (keeping `to`), and that nothing was issued. */
async function expectRefused(reason: string, attempt: () => Promise<Response>) {
  const [codes, sessionsBefore] = [await codeCount(), await sessionCount()];
  const res = await attempt();
  expect(res.status).toBe(302);
  const landing = new URL(res.headers.get("Location")!, "http://mam.test");
  expect(landing.pathname).toBe("/login");
  expect(landing.searchParams.get("sso_error")).toBe(reason);
  expect(landing.searchParams.get("token")).toBeNull();
  expect(await codeCount()).toBe(codes);
  expect(await sessionCount()).toBe(sessionsBefore);
  expect(await res.text()).not.toMatch(/Error|at .*\.ts/);
  return landing;
}

describe("the callback refuses", () => {
  it("a forged state", async () => {
    const e = ssoEnv(idp);
    const start = await api("/api/auth/sso/corp?to=%2Fjobs", { env: e });
    const cookie = start.headers.getSetCookie()[0].split(";")[0];
    const code = idp.authorize(start.headers.get("Location")!, { sub: uniqSub() });
    await expectRefused("bad_state", () => api(`/api/auth/sso-cb/corp?code=${code}&state=forged-state-value`, { env: e, cookie }));
    await expectRefused("bad_state", () => api(`/api/auth/sso-cb/corp?code=${code}`, { env: e, cookie }));
  });

  it("a state brought back by another browser (no binding cookie), and that state afterwards", async () => {
    const e = ssoEnv(idp);
    const start = await api("/api/auth/sso/corp?to=%2Fsearch", { env: e });
    const location = start.headers.get("Location")!;
    const state = new URL(location).searchParams.get("state")!;
    const code = idp.authorize(location, { sub: uniqSub() });
    const landing = await expectRefused("bad_state", () =>
      api(`/api/auth/sso-cb/corp?code=${code}&state=${state}`, { env: e, cookie: "mam_sso=someone-else" }),
    );
    // The wanted path survives the failure, so a retry lands where the user was going.
    expect(landing.searchParams.get("to")).toBe("/search");
    const cookie = start.headers.getSetCookie()[0].split(";")[0];
    await expectRefused("bad_state", () => api(`/api/auth/sso-cb/corp?code=${code}&state=${state}`, { env: e, cookie }));
  });

  it("a replayed callback (the state is used up) and a replayed code under a new state", async () => {
    const e = ssoEnv(idp);
    const first = await signInVia(e, idp, { sub: uniqSub() });
    expect(first.landing.searchParams.get("token")).toBeTruthy();
    await expectRefused("bad_state", () =>
      api(`/api/auth/sso-cb/corp?code=${first.code}&state=${first.state}`, { env: e, cookie: first.cookie }),
    );

    const again = await api("/api/auth/sso/corp", { env: e });
    const state = new URL(again.headers.get("Location")!).searchParams.get("state")!;
    const cookie = again.headers.getSetCookie()[0].split(";")[0];
    await expectRefused("exchange_failed", () => api(`/api/auth/sso-cb/corp?code=${first.code}&state=${state}`, { env: e, cookie }));
  });

  it.each<[string, TokenTweaks]>([
    ["a token for another audience", { aud: "some-other-client" }],
    ["an expired token", { expiresIn: -120 }],
    ["a token from another issuer", { iss: "https://idp.test/realms/other" }],
    ["a token with another nonce", { nonce: "replayed-nonce" }],
    ["a token signed with a key not in the JWKS", { otherKey: true }],
    ["several audiences without azp naming this client", { aud: ["mam-client", "another"] }],
  ])("%s", async (_name, tweaks) => {
    const sub = uniqSub();
    await expectRefused("bad_token", async () => (await signInVia(ssoEnv(idp), idp, { sub }, { tweaks })).back);
    expect(await db().select().from(ssoLinks).where(eq(ssoLinks.subject, sub)).all()).toHaveLength(0);
  });

  it("a disabled user", async () => {
    const e = ssoEnv(idp);
    const sub = uniqSub();
    const first = await signInVia(e, idp, { sub });
    expect(first.landing.searchParams.get("token")).toBeTruthy();
    const { userId } = (await db().select().from(ssoLinks).where(eq(ssoLinks.subject, sub)).get())!;
    await db().update(users).set({ enabled: false }).where(eq(users.userId, userId));
    await expectRefused("disabled", async () => (await signInVia(e, idp, { sub })).back);
  });

  it("a code handed out before the user was disabled", async () => {
    const e = ssoEnv(idp);
    const sub = uniqSub();
    const { landing } = await signInVia(e, idp, { sub });
    const { userId } = (await db().select().from(ssoLinks).where(eq(ssoLinks.subject, sub)).get())!;
    await db().update(users).set({ enabled: false }).where(eq(users.userId, userId));
    const res = await api("/api/auth/exchange-token", { env: e, method: "POST", json: { token: landing.searchParams.get("token") } });
    expect(res.status).toBe(403);
    expect(await db().select().from(sessions).where(eq(sessions.userId, userId)).all()).toHaveLength(0);
  });

  it("denied consent at the provider, and a provider error", async () => {
    const e = ssoEnv(idp);
    for (const [error, reason] of [
      ["access_denied", "denied"],
      ["server_error", "provider_error"],
    ]) {
      const start = await api("/api/auth/sso/corp?to=%2Fjobs", { env: e });
      const state = new URL(start.headers.get("Location")!).searchParams.get("state")!;
      const cookie = start.headers.getSetCookie()[0].split(";")[0];
      const landing = await expectRefused(reason, () => api(`/api/auth/sso-cb/corp?error=${error}&state=${state}`, { env: e, cookie }));
      expect(landing.searchParams.get("to")).toBe("/jobs");
    }
  });

  it("an unknown provider, and a callback for another provider than the one started", async () => {
    const e = ssoEnv(idp);
    await expectRefused("unknown_provider", () => api("/api/auth/sso-cb/nope?code=x&state=y", { env: e }));
    const twoProviders = {
      ...e,
      SSO_PROVIDERS: JSON.stringify([
        ...JSON.parse(e.SSO_PROVIDERS!),
        { name: "other", title: "Другой", issuer: ISSUER, client_id: "c", client_secret: "s" },
      ]),
    };
    const start = await api("/api/auth/sso/corp", { env: twoProviders });
    const state = new URL(start.headers.get("Location")!).searchParams.get("state")!;
    const cookie = start.headers.getSetCookie()[0].split(";")[0];
    await expectRefused("bad_state", () => api(`/api/auth/sso-cb/other?code=x&state=${state}`, { env: twoProviders, cookie }));
  });
});
