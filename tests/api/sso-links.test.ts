import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ssoLinks } from "../../db/schema";
import { getDb } from "../../functions/lib/db";
import { admin, mkPerson } from "./fixtures";
import { api } from "./helpers";
import { fakeIdp, signInVia, ssoEnv, type FakeIdp } from "./sso.helpers";

/** /api/user/{id}/sso-links: the admin sees which providers a user is linked to, and can unlink one. */

let idp: FakeIdp;
beforeAll(async () => {
  idp = await fakeIdp();
});

async function linkedUser(e: ReturnType<typeof ssoEnv>) {
  const sub = `sub-${crypto.randomUUID()}`;
  await signInVia(e, idp, { sub, email: `${sub}@corp.test` });
  return { sub, userId: (await getDb(env).select().from(ssoLinks).where(eq(ssoLinks.subject, sub)).get())!.userId };
}

describe("GET /api/user/{id}/sso-links", () => {
  it("lists the provider (with its title), subject, e-mail and times", async () => {
    const e = ssoEnv(idp);
    const { sub, userId } = await linkedUser(e);
    const res = await api(`/api/user/${userId}/sso-links`, { env: e, bearer: await admin() });
    expect(res.status).toBe(200);
    const [link, ...rest] = (await res.json()) as Record<string, unknown>[];
    expect(rest).toEqual([]);
    expect(link).toMatchObject({ provider: "corp", title: "Корпоративный вход", subject: sub, email: `${sub}@corp.test` });
    expect(link.last_login).toEqual(expect.any(Number));
  });

  it("answers an empty list for a user without links, 404 for no such user, 403 for a non-admin", async () => {
    const e = ssoEnv(idp);
    const person = await mkPerson();
    expect(await (await api(`/api/user/${person.id}/sso-links`, { env: e, bearer: await admin() })).json()).toEqual([]);
    expect((await api(`/api/user/${crypto.randomUUID()}/sso-links`, { env: e, bearer: await admin() })).status).toBe(404);
    expect((await api(`/api/user/${person.id}/sso-links`, { env: e, bearer: person.bearer })).status).toBe(403);
    expect((await api(`/api/user/not-an-id/sso-links`, { env: e, bearer: await admin() })).status).toBe(400);
  });
});

describe("DELETE /api/user/{id}/sso-links/{provider}", () => {
  it("unlinks: the next sign-in with that subject no longer reaches the user", async () => {
    const e = ssoEnv(idp);
    const { sub, userId } = await linkedUser(e);
    const res = await api(`/api/user/${userId}/sso-links/corp`, { env: e, method: "DELETE", bearer: await admin() });
    expect(res.status).toBe(200);
    expect(await (await api(`/api/user/${userId}/sso-links`, { env: e, bearer: await admin() })).json()).toEqual([]);

    await signInVia(e, idp, { sub });
    const relinked = (await getDb(env).select().from(ssoLinks).where(eq(ssoLinks.subject, sub)).get())!;
    expect(relinked.userId).not.toBe(userId);
  });

  it("answers 404 for a provider the user is not linked to, and 403 for a non-admin", async () => {
    const e = ssoEnv(idp);
    const { userId } = await linkedUser(e);
    expect((await api(`/api/user/${userId}/sso-links/other`, { env: e, method: "DELETE", bearer: await admin() })).status).toBe(404);
    const person = await mkPerson();
    expect((await api(`/api/user/${userId}/sso-links/corp`, { env: e, method: "DELETE", bearer: person.bearer })).status).toBe(403);
    expect(await getDb(env).select().from(ssoLinks).where(eq(ssoLinks.userId, userId)).all()).toHaveLength(1);
  });
});
