import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { shareLinks } from "../../db/schema";
import { ru } from "../../app/i18n/ru";
import { admin, db, mkGroup, VIRTUAL_ROOT } from "./fixtures";
import { api } from "./helpers";
import { createAsset, uploadFile } from "./uploads.helpers";

/** The public page /sl/{id}, server-rendered by the Worker: each state's status, Russian text and what it must not show. */

const fileName = "Секретный-план.txt";

async function sharedLink(body: Record<string, unknown> = {}) {
  const bearer = await admin();
  const group = await mkGroup(VIRTUAL_ROOT);
  const { asset_id } = await createAsset(bearer, { in_group: group, asset_name: fileName, asset_mime: "text/plain" });
  await uploadFile(bearer, asset_id, new TextEncoder().encode("план"), { name: fileName, mime: "text/plain" });
  const res = await api(`/api/sl/create/${asset_id}`, { method: "POST", json: { acl: ["view", "download_original"], ...body }, bearer });
  expect(res.status).toBe(200);
  return res.text();
}

/** The page as a browser gets it: status, headers and the HTML (entities decoded, as a reader sees the text). */
async function page(id: string, init: Parameters<typeof api>[1] = {}) {
  const res = await api(`/sl/${id}`, init);
  const html = (await res.text())
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
  return { status: res.status, headers: res.headers, html };
}

describe("the public page", () => {
  it("an open link shows the file's name and the download, as HTML with no app scripts", async () => {
    const id = await sharedLink();
    const p = await page(id);
    expect(p.status).toBe(200);
    expect(p.html).toContain(fileName);
    expect(p.html).toContain(`/api/sl/${id}/download/original`);
    expect(p.html).toContain(ru.share.download);
    // The route opts out of hydration (handle.hydrate = false): no module scripts, no Remix context.
    expect(p.html).not.toMatch(/<script[^>]*type="module"/);
    expect(p.html).not.toContain("__remixContext");
    expect(p.headers.get("Cache-Control")).toBe("public, max-age=60, s-maxage=60");
  });

  it.each([
    [
      "revoked",
      ru.share.unavailable.revoked,
      async (id: string) => {
        await api(`/api/sl/${id}`, { method: "DELETE", bearer: await admin() });
      },
    ],
    [
      "expired",
      ru.share.unavailable.expired,
      async (id: string) => {
        await db().update(shareLinks).set({ startsAt: 1, endsAt: 2 }).where(eq(shareLinks.linkId, id));
      },
    ],
    [
      "used up",
      ru.share.unavailable.exhausted,
      async (id: string) => {
        await db().update(shareLinks).set({ downloadLimit: 1, downloadCount: 1 }).where(eq(shareLinks.linkId, id));
      },
    ],
  ])("link %s: 410 with its Russian text and nothing about the file", async (_state, text, spoil) => {
    const id = await sharedLink();
    await spoil(id);
    const p = await page(id);
    expect(p.status).toBe(410);
    expect(p.html).toContain(ru.share.unavailableTitle);
    expect(p.html).toContain(text);
    expect(p.html).not.toContain(fileName);
    expect(p.html).not.toContain("/download/");
  });

  it("the edge keeps an open page: a cached view still counts, and an edit or a revocation shows at once", async () => {
    const bearer = await admin();
    const id = await sharedLink();
    expect((await page(id)).status).toBe(200);
    expect((await page(id)).html).toContain(fileName); // from the cache: the database says the same
    const views = async () => (await db().select({ n: shareLinks.viewCount }).from(shareLinks).where(eq(shareLinks.linkId, id)))[0].n;
    await expect.poll(views).toBe(2);

    expect((await api(`/api/sl/${id}`, { method: "PATCH", json: { password: "новый-пароль" }, bearer })).status).toBe(200);
    const locked = await page(id);
    expect(locked.html).toContain(ru.share.passwordTitle);
    expect(locked.html).not.toContain(fileName);

    expect((await api(`/api/sl/${id}`, { method: "DELETE", bearer })).status).toBe(200);
    const revoked = await page(id);
    expect(revoked.status).toBe(410);
    expect(revoked.html).toContain(ru.share.unavailable.revoked);
  });

  it("the info answer comes from the edge too, until the asset is renamed or the link revoked, here or anywhere", async () => {
    const bearer = await admin();
    const id = await sharedLink();
    const info = async () => {
      const res = await api(`/api/sl/info/${id}`);
      return { status: res.status, ran: res.headers.has("X-Request-Id"), body: (await res.json()) as { name?: string } };
    };
    const first = await info();
    expect(first).toMatchObject({ status: 200, ran: true, body: { name: fileName } });
    // A stored answer was not run again: it carries no request id of its own.
    await expect.poll(async () => (await info()).ran).toBe(false);

    const [{ asset_id }] = await db().select({ asset_id: shareLinks.assetId }).from(shareLinks).where(eq(shareLinks.linkId, id));
    const renamed = "Новое-имя.txt";
    expect((await api(`/api/asset/${asset_id}`, { method: "PATCH", json: { asset_name: renamed }, bearer })).status).toBe(200);
    expect(await info()).toMatchObject({ status: 200, ran: true, body: { name: renamed } });

    // A revocation written where this data centre's cache was not told (another region): still never served.
    await db().update(shareLinks).set({ revokedAt: 1 }).where(eq(shareLinks.linkId, id));
    const revoked = await info();
    expect(revoked.status).toBe(410);
    expect(revoked.body.name).toBeUndefined();
    expect((await page(id)).status).toBe(410);
  });

  it("a link with a download limit is never stored by the edge: its page changes with each download", async () => {
    const id = await sharedLink({ download_limit: 2 });
    const p = await page(id);
    expect(p.status).toBe(200);
    expect(p.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("an unknown link answers 404 with its Russian text, not stored by the edge", async () => {
    const p = await page("AAAAAAAAAAAAAAAAAAAAAA");
    expect(p.status).toBe(404);
    expect(p.html).toContain(ru.share.unavailable.unknown);
    expect(p.headers.get("Cache-Control")).toBe("no-store");
  });

  it("a password form first; wrong passwords until 429 with the throttle text, and still no file name", async () => {
    const id = await sharedLink({ password: "пароль-страницы" });
    const locked = await page(id);
    expect(locked.status).toBe(200);
    expect(locked.html).toContain(ru.share.passwordTitle);
    expect(locked.html).toMatch(/<form[^>]*method="post"/i);
    expect(locked.html).not.toContain(fileName);
    expect(locked.headers.get("Cache-Control")).toBe("private, no-store");

    const ip = "10.251.0.1";
    const post = (password: string) =>
      page(id, {
        method: "POST",
        ip,
        body: new URLSearchParams({ password }),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        redirect: "manual",
      });
    const wrong = await post("не тот");
    expect(wrong.status).toBe(403);
    expect(wrong.html).toContain(ru.share.wrongPassword);
    for (let i = 0; i < 9; i++) expect((await post(`guess-${i}`)).status).toBe(403);
    const throttled = await post("пароль-страницы");
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(throttled.html).toContain(ru.share.throttled);
    expect(throttled.html).not.toContain(fileName);
  }, 60_000);

  it("the right password redirects to the page with the unlock cookie, which then shows the file", async () => {
    const id = await sharedLink({ password: "пароль-страницы" });
    const res = await api(`/sl/${id}`, {
      method: "POST",
      body: new URLSearchParams({ password: "пароль-страницы" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      redirect: "manual",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe(`/sl/${id}`);
    const cookie = res.headers.getSetCookie()[0].split(";")[0];
    const open = await page(id, { cookie });
    expect(open.status).toBe(200);
    expect(open.html).toContain(fileName);
    expect(open.headers.get("Cache-Control")).toBe("private, no-store");
  }, 30_000);
});
