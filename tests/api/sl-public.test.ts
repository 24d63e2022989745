import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { accessRules, shareLinks } from "../../db/schema";
import { admin, call, db, disable, grant, mkGroup, mkPerson, VIRTUAL_ROOT } from "./fixtures";
import { api } from "./helpers";
import { createAsset, uploadFile } from "./uploads.helpers";

/** Share links, the recipient's side: info, password and its throttle, the window, the creator's rights. */

const bytes = new TextEncoder().encode("Содержимое файла для ссылки");

async function sharedAsset(bearer?: string, group?: string) {
  const g = group ?? (await mkGroup(VIRTUAL_ROOT));
  const { asset_id } = await createAsset(bearer ?? (await admin()), { in_group: g, asset_name: "Отчёт.txt", asset_mime: "text/plain" });
  await uploadFile(bearer ?? (await admin()), asset_id, bytes, { name: "Отчёт.txt", mime: "text/plain" });
  return { group: g, assetId: asset_id };
}

async function link(assetId: string, body: Record<string, unknown> = {}, bearer?: string) {
  const res = await api(`/api/sl/create/${assetId}`, {
    method: "POST",
    json: { acl: ["view", "download_original"], ...body },
    bearer: bearer ?? (await admin()),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`create: ${res.status} ${text}`);
  return text;
}

const unlock = (id: string, password: string, ip?: string) => api(`/api/sl/info/${id}`, { method: "POST", json: { password }, ip });
const cookieOf = (res: Response) => res.headers.getSetCookie()[0]?.split(";")[0] ?? "";

describe("info", () => {
  it("tells an open link's name, type, size and links, cacheable for a minute, without a bearer", async () => {
    const { assetId } = await sharedAsset();
    const id = await link(assetId);
    const res = await api(`/api/sl/info/${id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=60, s-maxage=60");
    expect(await res.json()).toMatchObject({
      link_id: id,
      password_required: false,
      unlocked: true,
      name: "Отчёт.txt",
      mime: "text/plain",
      size: bytes.length,
      kind: "other",
      // No proxy: the player never shows the original (docs/decisions/021-user-bytes.md).
      preview: null,
      play: null,
      download: `/api/sl/${id}/download/original`,
      download_proxy: null,
    });
    const dl = await api(`/api/sl/${id}/download/original`);
    expect(dl.headers.get("Content-Disposition")).toContain("attachment");
    expect(new Uint8Array(await dl.arrayBuffer())).toEqual(bytes);
    const ranged = await api(`/api/sl/${id}/download/original`, { headers: { Range: "bytes=4-7" } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("Content-Range")).toBe(`bytes 4-7/${bytes.length}`);
  });

  it("hides everything about the file until the password is given; the unlock cookie is httpOnly, short-lived, per link", async () => {
    const { assetId } = await sharedAsset();
    const id = await link(assetId, { password: "верный-пароль" });
    const other = await link(assetId, { password: "верный-пароль" });
    const locked = await api(`/api/sl/info/${id}`);
    expect(locked.status).toBe(200);
    expect(locked.headers.get("Cache-Control")).toBe("private, no-store");
    const body = await locked.text();
    expect(JSON.parse(body)).toMatchObject({
      password_required: true,
      unlocked: false,
      name: null,
      size: null,
      download: null,
      play: null,
    });
    expect(body).not.toContain("Отчёт");
    expect((await api(`/api/sl/${id}/download/original`)).status).toBe(403);
    expect((await api(`/api/sl/${id}/play`)).status).toBe(403);

    const wrong = await unlock(id, "не тот");
    expect(wrong.status).toBe(403);
    expect(wrong.headers.getSetCookie()).toEqual([]);
    const ok = await unlock(id, "верный-пароль");
    expect(ok.status).toBe(200);
    const set = ok.headers.getSetCookie()[0];
    expect(set).toMatch(new RegExp(`^mam_sl_${id}=`));
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/Max-Age=3600/);
    expect(set).toMatch(/SameSite=Lax/);
    expect(ok.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await ok.json()).toMatchObject({ unlocked: true, name: "Отчёт.txt" });

    const cookie = cookieOf(ok);
    const info = await api(`/api/sl/info/${id}`, { cookie });
    expect(await info.json()).toMatchObject({ unlocked: true, name: "Отчёт.txt" });
    const dl = await api(`/api/sl/${id}/download/original`, { cookie });
    expect(dl.status).toBe(200);
    expect(dl.headers.get("Cache-Control")).toBe("private, no-store");
    expect(new Uint8Array(await dl.arrayBuffer())).toEqual(bytes);
    // Bound to the link: renamed for another link, or tampered with, it unlocks nothing.
    const moved = cookie.replace(`mam_sl_${id}`, `mam_sl_${other}`);
    expect(((await (await api(`/api/sl/info/${other}`, { cookie: moved })).json()) as any).unlocked).toBe(false);
    const tampered = cookie.replace(/.$/, (c) => (c === "0" ? "1" : "0"));
    expect(((await (await api(`/api/sl/info/${id}`, { cookie: tampered })).json()) as any).unlocked).toBe(false);
    // A new password ends unlocks issued before it.
    await call(`/api/sl/${id}`, { method: "PATCH", json: { password: "другой-пароль" }, bearer: await admin() });
    expect(((await (await api(`/api/sl/info/${id}`, { cookie })).json()) as any).unlocked).toBe(false);
  }, 30_000); // several scrypt hashes: slow on a loaded machine

  it("404 for an unknown or malformed id, in Russian", async () => {
    for (const id of ["AAAAAAAAAAAAAAAAAAAAAA", "short"]) {
      const r = await call(`/api/sl/info/${id}`);
      expect([400, 404]).toContain(r.status);
    }
    const r = await call(`/api/sl/info/AAAAAAAAAAAAAAAAAAAAAA`);
    expect(r.status).toBe(404);
    expect(r.body.error.message).toBe("Ссылка не найдена");
  });
});

describe("password throttle", () => {
  it("answers 429 with Retry-After after 10 wrong passwords for one link, even from new addresses and with the right one", async () => {
    const { assetId } = await sharedAsset();
    const id = await link(assetId, { password: "правильный" });
    for (let i = 0; i < 10; i++) expect((await unlock(id, `guess-${i}`)).status).toBe(403);
    const blocked = await unlock(id, "правильный");
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(((await blocked.json()) as any).error.code).toBe("rate_limited");
  }, 60_000);

  it("counts before it checks: of 60 parallel wrong passwords from many addresses, at most 10 are checked", async () => {
    const { assetId } = await sharedAsset();
    const id = await link(assetId, { password: "правильный" });
    const all = await Promise.all(Array.from({ length: 60 }, (_, i) => unlock(id, `guess-${i}`)));
    const wrong = all.filter((r) => r.status === 403).length;
    expect(wrong).toBeGreaterThanOrEqual(1);
    expect(wrong).toBeLessThanOrEqual(10);
    expect(all.filter((r) => r.status === 429).length).toBe(60 - wrong);
    expect((await unlock(id, "правильный")).status).toBe(429);
  }, 60_000);

  it("a right password is not counted: recipients behind one address keep opening links", async () => {
    const { assetId } = await sharedAsset();
    const id = await link(assetId, { password: "правильный" });
    const ip = "10.250.1.1";
    for (let i = 0; i < 12; i++) expect((await unlock(id, "правильный", ip)).status).toBe(200);
  }, 60_000);

  it("answers 429 to one address after 30 wrong passwords across links", async () => {
    const { assetId } = await sharedAsset();
    const ids = await Promise.all([1, 2, 3, 4].map(() => link(assetId, { password: "правильный" })));
    const ip = "10.250.0.1";
    for (let i = 0; i < 30; i++) expect((await unlock(ids[i % 4], `guess-${i}`, ip)).status).toBe(403);
    expect((await unlock(ids[0], "правильный", ip)).status).toBe(429);
    expect((await unlock(ids[0], "правильный", "10.250.0.2")).status).toBe(200);
  }, 60_000);
});

/** Runs `check` with the link's window set relative to `now`, retrying if the clock's second turned meanwhile. */
async function atEdge(id: string, window: (now: number) => [number | null, number | null]) {
  for (;;) {
    const now = Math.floor(Date.now() / 1000);
    const [startsAt, endsAt] = window(now);
    await db().update(shareLinks).set({ startsAt, endsAt }).where(eq(shareLinks.linkId, id));
    const r = await call(`/api/sl/info/${id}`);
    if (Math.floor(Date.now() / 1000) === now) return r;
  }
}

describe("the time window", () => {
  it("is closed one second before the start (404), open from the start to the end inclusive, gone one second after (410)", async () => {
    const { assetId } = await sharedAsset();
    const id = await link(assetId);
    const before = await atEdge(id, (now) => [now + 1, now + 100]);
    expect(before.status).toBe(404);
    expect(before.body.error.message).toBe("Ссылка ещё не действует");
    expect((await atEdge(id, (now) => [now, now + 100])).status).toBe(200);
    expect((await atEdge(id, (now) => [now - 100, now])).status).toBe(200);
    expect((await atEdge(id, (now) => [null, now + 1])).status).toBe(200);
    const after = await atEdge(id, (now) => [now - 100, now - 1]);
    expect(after.status).toBe(410);
    expect(after.body.error.message).toBe("Срок действия ссылки истёк");
    expect((await api(`/api/sl/${id}/download/original`)).status).toBe(410);
  });

  it("caps the cache lifetime at the window's end", async () => {
    const { assetId } = await sharedAsset();
    const id = await link(assetId);
    await db()
      .update(shareLinks)
      .set({ endsAt: Math.floor(Date.now() / 1000) + 20 })
      .where(eq(shareLinks.linkId, id));
    const cc = (await api(`/api/sl/info/${id}`)).headers.get("Cache-Control") ?? "";
    expect(Number(/max-age=(\d+)/.exec(cc)?.[1])).toBeLessThanOrEqual(20);
  });
});

describe("the creator's rights", () => {
  it("a link stops working when its creator loses read, and offers no download once they lose download", async () => {
    const group = await mkGroup(VIRTUAL_ROOT);
    const sharer = await mkPerson();
    const rule = await grant(sharer.id, group, ["read", "acl", "download", "create", "update"]);
    const { assetId } = await sharedAsset(await admin(), group);
    const id = await link(assetId, {}, sharer.bearer);
    expect((await call(`/api/sl/info/${id}`)).body.download).toBe(`/api/sl/${id}/download/original`);

    await db().delete(accessRules).where(eq(accessRules.ruleId, rule));
    await grant(sharer.id, group, ["read"]);
    const viewOnly = await call(`/api/sl/info/${id}`);
    expect(viewOnly.status).toBe(200);
    expect(viewOnly.body).toMatchObject({ name: "Отчёт.txt", download: null });
    expect((await api(`/api/sl/${id}/download/original`)).status).toBe(403);

    await db().delete(accessRules).where(eq(accessRules.subjId, sharer.id));
    const gone = await call(`/api/sl/info/${id}`);
    expect(gone.status).toBe(410);
    expect(gone.body.error.message).toBe("Ссылка больше не действует");
    expect(gone.text).not.toContain("Отчёт");
  });

  it("a link stops working when its creator is disabled", async () => {
    const group = await mkGroup(VIRTUAL_ROOT);
    const sharer = await mkPerson();
    await grant(sharer.id, group, ["read", "acl", "download"]);
    const { assetId } = await sharedAsset(await admin(), group);
    const id = await link(assetId, {}, sharer.bearer);
    expect((await call(`/api/sl/info/${id}`)).status).toBe(200);
    await disable(sharer.id);
    expect((await call(`/api/sl/info/${id}`)).status).toBe(410);
    expect((await api(`/api/sl/${id}/play`)).status).toBe(410);
  });
});
