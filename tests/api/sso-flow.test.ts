import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { sessions, ssoLinks, users } from "../../db/schema";
import { getDb } from "../../functions/lib/db";
import { api, createUser } from "./helpers";
import { CLIENT, cookieOf, fakeIdp, ISSUER, ORIGIN, signInVia, ssoEnv, type FakeIdp } from "./sso.helpers";

/** Single sign-on against a fake provider (only its HTTP is fake): the way in, and who it signs in. */

let idp: FakeIdp;
beforeAll(async () => {
  idp = await fakeIdp();
});

const db = () => getDb(env);
const uniqSub = () => `sub-${crypto.randomUUID()}`;

async function exchange(e: ReturnType<typeof ssoEnv>, token: string) {
  const res = await api("/api/auth/exchange-token", { env: e, method: "POST", json: { token } });
  return { res, body: (await res.json()) as { bearer: string; expire: number; error?: { message: string } } };
}

describe("GET /api/auth/sso-providers", () => {
  it("lists each configured provider's name and title, and nothing secret", async () => {
    const res = await api("/api/auth/sso-providers", { env: ssoEnv(idp) });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual([{ name: "corp", title: "Корпоративный вход" }]);
    expect(text).not.toContain(CLIENT.secret);
  });

  it("offers none when SSO_PROVIDERS is missing; a malformed one stops the server with a 500 naming it", async () => {
    expect(await (await api("/api/auth/sso-providers", { env: { ...ssoEnv(idp), SSO_PROVIDERS: undefined } })).json()).toEqual([]);
    const malformed = await api("/api/auth/sso-providers", { env: { ...ssoEnv(idp), SSO_PROVIDERS: "[{oops" } });
    expect(malformed.status).toBe(500);
    expect(((await malformed.json()) as { error: { message: string } }).error.message).toContain("SSO_PROVIDERS");
  });
});

describe("GET /api/auth/sso/{provider}", () => {
  it("redirects to the provider with state, nonce and PKCE S256, and binds the flow to this browser", async () => {
    const res = await api("/api/auth/sso/corp?to=%2Fjobs%2F42", { env: ssoEnv(idp) });
    expect(res.status).toBe(302);
    const url = new URL(res.headers.get("Location")!);
    expect(`${url.origin}${url.pathname}`).toBe(`${ISSUER}/auth`);
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({
      response_type: "code",
      client_id: CLIENT.id,
      redirect_uri: `${ORIGIN}/api/auth/sso-cb/corp`,
      code_challenge_method: "S256",
    });
    expect(q.scope.split(" ")).toEqual(expect.arrayContaining(["openid", "email", "profile"]));
    for (const k of ["state", "nonce", "code_challenge"]) expect(q[k]).toMatch(/^[\w-]{43,}$/);
    expect(q.state).not.toBe(q.nonce);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("mam_sso="))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });

  it("sends an unknown provider back to /login with the reason and the wanted path", async () => {
    const res = await api("/api/auth/sso/nope?to=%2Fsearch", { env: ssoEnv(idp) });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/login?sso_error=unknown_provider&to=%2Fsearch");
  });

  it("sends the browser back with provider_unavailable when discovery cannot be fetched", async () => {
    const down = await fakeIdp();
    down.setDown(true);
    const res = await api("/api/auth/sso/corp", { env: ssoEnv(down) });
    expect(res.headers.get("Location")).toBe("/login?sso_error=provider_unavailable&to=%2Fmam");
  });

  it("never follows a `to` that leaves the site", async () => {
    const { landing } = await signInVia(ssoEnv(idp), idp, { sub: uniqSub() }, { to: "//evil.example/x" });
    expect(landing.searchParams.get("to")).toBe("/mam");
  });

  it.each(["/%09/evil.example", "/\t/evil.example", "//evil", "/\\evil", "/%5Cevil", "https://evil.example", "javascript:alert(1)"])(
    "lands inside the app for to=%j, signed in or refused",
    async (to) => {
      const { landing } = await signInVia(ssoEnv(idp), idp, { sub: uniqSub() }, { to });
      expect(landing.pathname).toBe("/login");
      expect(landing.searchParams.get("to")).toBe("/mam");
      const refused = await api(`/api/auth/sso/nope?to=${encodeURIComponent(to)}`, { env: ssoEnv(idp) });
      expect(refused.headers.get("Location")).toBe("/login?sso_error=unknown_provider&to=%2Fmam");
    },
  );
});

describe("the callback and POST /api/auth/exchange-token", () => {
  it("provisions an enabled non-admin user, hands a one-time code to /login and turns it into a session", async () => {
    const e = ssoEnv(idp);
    const sub = uniqSub();
    const { back, landing } = await signInVia(e, idp, {
      sub,
      email: `${sub}@corp.test`,
      email_verified: true,
      name: "Иван Петров",
      preferred_username: "ivan",
    });
    expect(back.status).toBe(302);
    expect(landing.pathname).toBe("/login");
    expect(landing.searchParams.get("to")).toBe("/jobs");
    const token = landing.searchParams.get("token")!;
    expect(token).toMatch(/^[\w-]{43}$/);

    const { res, body } = await exchange(e, token);
    expect(res.status).toBe(200);
    expect(body.expire).toBeGreaterThan(Date.now() / 1000);
    expect(cookieOf(res, "mam_refresh")).toBeTruthy();
    // The page-session cookie carries the same bearer, for the server's page loaders only.
    expect(cookieOf(res, "mam_page")).toBe(`mam_page=${body.bearer}`);
    expect(res.headers.getSetCookie().find((c) => c.startsWith("mam_page="))).toMatch(/HttpOnly.*SameSite=Lax|SameSite=Lax.*HttpOnly/i);
    const who = await api("/api/auth/whoami", { env: e, bearer: body.bearer });
    // The login is the address the provider vouches for.
    expect(await who.json()).toMatchObject({ name: "Иван Петров", login: `${sub}@corp.test`, is_admin: false });

    const link = await db().select().from(ssoLinks).where(eq(ssoLinks.subject, sub)).get();
    const user = await db().select().from(users).where(eq(users.userId, link!.userId)).get();
    expect(user).toMatchObject({ enabled: true, isAdmin: false, passwdHash: null });
    expect(link).toMatchObject({ provider: "corp", email: `${sub}@corp.test` });
  });

  it("signs the same subject in as the same user the second time", async () => {
    const e = ssoEnv(idp);
    const sub = uniqSub();
    const first = await signInVia(e, idp, { sub, preferred_username: sub });
    const a = await exchange(e, first.landing.searchParams.get("token")!);
    // The provider may change the e-mail or the name: the subject is what identifies the user.
    const second = await signInVia(e, idp, { sub, preferred_username: `${sub}-renamed`, email: "new@corp.test" });
    const b = await exchange(e, second.landing.searchParams.get("token")!);
    const whoA = (await (await api("/api/auth/whoami", { env: e, bearer: a.body.bearer })).json()) as {
      id: string;
    };
    const whoB = (await (await api("/api/auth/whoami", { env: e, bearer: b.body.bearer })).json()) as {
      id: string;
    };
    expect(whoB.id).toBe(whoA.id);
    expect(await db().select().from(ssoLinks).where(eq(ssoLinks.userId, whoA.id)).all()).toHaveLength(1);
  });

  it("makes the new user an admin only when admin_claim matches", async () => {
    const e = ssoEnv(idp);
    const admin = await signInVia(e, idp, { sub: uniqSub(), groups: ["staff", "mam-admins"] });
    const plain = await signInVia(e, idp, { sub: uniqSub(), groups: ["staff"] });
    const roleOf = async (token: string) => {
      const { body } = await exchange(e, token);
      return ((await (await api("/api/auth/whoami", { env: e, bearer: body.bearer })).json()) as { is_admin: boolean }).is_admin;
    };
    expect(await roleOf(admin.landing.searchParams.get("token")!)).toBe(true);
    expect(await roleOf(plain.landing.searchParams.get("token")!)).toBe(false);
  });

  it("links an existing user by verified e-mail only where the operator allowed it", async () => {
    const email = `${uniqSub()}@corp.test`;
    const existing = await createUser({ login: email, password: "long-enough-pw" });
    const userOf = async (e: ReturnType<typeof ssoEnv>, claims: Record<string, unknown>) => {
      const { landing } = await signInVia(e, idp, claims);
      const { body } = await exchange(e, landing.searchParams.get("token")!);
      return ((await (await api("/api/auth/whoami", { env: e, bearer: body.bearer })).json()) as { id: string }).id;
    };
    // Not allowed (the default): a new user, whose login avoids the taken one.
    expect(await userOf(ssoEnv(idp), { sub: uniqSub(), email, email_verified: true })).not.toBe(existing);
    const allowed = ssoEnv(idp, { link_by_email: true });
    // Allowed, but the provider does not vouch for the address: still a new user.
    expect(await userOf(allowed, { sub: uniqSub(), email, email_verified: false })).not.toBe(existing);
    expect(await userOf(allowed, { sub: uniqSub(), email: email.toUpperCase(), email_verified: true })).toBe(existing);
  });

  it("refuses a used code and an expired one, and starts no session for them", async () => {
    const e = ssoEnv(idp);
    const { landing } = await signInVia(e, idp, { sub: uniqSub() });
    const token = landing.searchParams.get("token")!;
    expect((await exchange(e, token)).res.status).toBe(200);
    const again = await exchange(e, token);
    expect(again.res.status).toBe(401);
    expect(again.body.error?.message).toMatch(/Код входа недействителен или истёк/);
    expect(cookieOf(again.res, "mam_refresh")).toBeUndefined();

    const lateSub = uniqSub();
    const late = await signInVia(e, idp, { sub: lateSub });
    const lateToken = late.landing.searchParams.get("token")!;
    const { userId } = (await db().select().from(ssoLinks).where(eq(ssoLinks.subject, lateSub)).get())!;
    await env.DB.prepare("UPDATE sso_codes SET expires_at = expires_at - 61").run();
    expect((await exchange(e, lateToken)).res.status).toBe(401);
    expect(await db().select().from(sessions).where(eq(sessions.userId, userId)).all()).toHaveLength(0);
  });

  it("answers 400 naming the field for a body without a token", async () => {
    const res = await api("/api/auth/exchange-token", { env: ssoEnv(idp), method: "POST", json: {} });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { details: { field: string }[] } }).error.details[0].field).toBe("token");
  });
});
