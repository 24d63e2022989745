import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { events, shareLinks } from "../../db/schema";
import { admin, call, db, grant, mkGroup, mkPerson, VIRTUAL_ROOT } from "./fixtures";
import { api } from "./helpers";
import { createAsset, uploadFile } from "./uploads.helpers";

/** Share links, the sharer's side: create (and each validation error), for-entity, edit, revoke, rights. */

async function assetInGroup() {
  const group = await mkGroup(VIRTUAL_ROOT);
  const { asset_id } = await createAsset(await admin(), { in_group: group, asset_name: "Ролик.mp4" });
  return { group, assetId: asset_id };
}

async function create(assetId: string, body: unknown, bearer?: string) {
  const res = await api(`/api/sl/create/${assetId}`, { method: "POST", json: body, bearer: bearer ?? (await admin()) });
  return { status: res.status, text: await res.text(), type: res.headers.get("Content-Type") ?? "" };
}

const fieldsOf = (text: string) => (JSON.parse(text).error.details as { field: string }[]).map((d) => d.field);

describe("create", () => {
  it("answers a 22-character base62 id as text, stores only a hash of the password, and writes an event", async () => {
    const { assetId } = await assetInGroup();
    const r = await create(assetId, { time_range: [null, null], password: "секрет-1", acl: ["view", "download_original"], email: [] });
    expect(r.status, r.text).toBe(200);
    expect(r.type).toMatch(/^text\/plain/);
    expect(r.text).toMatch(/^[0-9A-Za-z]{22}$/);
    const row = await db().select().from(shareLinks).where(eq(shareLinks.linkId, r.text)).get();
    expect(row?.passwordHash).toMatch(/^scrypt\$/);
    expect(row?.passwordHash).not.toContain("секрет-1");
    const ev = await db()
      .select()
      .from(events)
      .where(and(eq(events.entityId, r.text), eq(events.kind, "share-link.create")))
      .get();
    expect(ev?.data).toMatchObject({ asset: assetId, password: true });
    expect(JSON.stringify(ev?.data)).not.toContain("scrypt");
  });

  it("draws ids at random: no two alike, no shared prefix as a counter or clock would give", async () => {
    const { assetId } = await assetInGroup();
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push((await create(assetId, { acl: ["view"] })).text);
    expect(new Set(ids).size).toBe(8);
    expect(new Set(ids.map((id) => id.slice(0, 3))).size).toBeGreaterThan(4);
  });

  it.each([
    ["time_range not a pair", { time_range: [1], acl: ["view"] }, "time_range"],
    ["time_range of strings", { time_range: ["a", "b"], acl: ["view"] }, "time_range.0"],
    ["time_range not an array", { time_range: "tomorrow", acl: ["view"] }, "time_range"],
    ["end before start", { time_range: [2_000_000_000, 1_999_999_999], acl: ["view"] }, "time_range.1"],
    ["end already past", { time_range: [null, 1_000_000_000], acl: ["view"] }, "time_range.1"],
    ["unknown acl value", { acl: ["view", "delete"] }, "acl.1"],
    ["empty acl", { acl: [] }, "acl"],
    ["missing acl", {}, "acl"],
    ["bad email", { acl: ["view"], email: ["not-an-address"] }, "email.0"],
    ["email not a list", { acl: ["view"], email: "a@b.c" }, "email"],
    ["short password", { acl: ["view"], password: "123" }, "password"],
    ["zero download limit", { acl: ["download_original"], download_limit: 0 }, "download_limit"],
  ])("400 naming the field: %s", async (_name, body, field) => {
    const { assetId } = await assetInGroup();
    const r = await create(assetId, body);
    expect(r.status, r.text).toBe(400);
    expect(fieldsOf(r.text)).toContain(field);
    expect(JSON.parse(r.text).error.message).toMatch(/Неверные данные/);
  });

  it("needs acl on the asset, and download too for a download link; 404 for an asset the caller cannot read", async () => {
    const { group, assetId } = await assetInGroup();
    const [reader, sharer, full, stranger] = await Promise.all([mkPerson(), mkPerson(), mkPerson(), mkPerson()]);
    await grant(reader.id, group, ["read"]);
    await grant(sharer.id, group, ["read", "acl"]);
    await grant(full.id, group, ["read", "acl", "download"]);
    expect((await create(assetId, { acl: ["view"] }, reader.bearer)).status).toBe(403);
    expect((await create(assetId, { acl: ["view"] }, sharer.bearer)).status).toBe(200);
    expect((await create(assetId, { acl: ["view", "download_original"] }, sharer.bearer)).status).toBe(403);
    expect((await create(assetId, { acl: ["download_original"] }, full.bearer)).status).toBe(200);
    expect((await create(assetId, { acl: ["view"] }, stranger.bearer)).status).toBe(404);
    expect((await create(crypto.randomUUID(), { acl: ["view"] })).status).toBe(404);
  });

  it("mails the recipients: to the console locally, and an event row says so", async () => {
    const { assetId } = await assetInGroup();
    const r = await create(assetId, { acl: ["view"], email: ["one@example.com", "two@example.com"] });
    expect(r.status).toBe(200);
    const ev = await db()
      .select()
      .from(events)
      .where(and(eq(events.entityId, r.text), eq(events.kind, "share-link.email")))
      .get();
    expect(ev?.data).toMatchObject({
      via: "console",
      results: [
        { to: "one@example.com", ok: true },
        { to: "two@example.com", ok: true },
      ],
    });
  });
});

describe("for-entity, edit, revoke", () => {
  it("lists links with settings and counts; full ids only to those who may manage them", async () => {
    const { group, assetId } = await assetInGroup();
    const id = (
      await create(assetId, {
        time_range: [null, 4_000_000_000],
        password: "pass-word",
        acl: ["view"],
        email: ["a@example.com"],
        download_limit: 3,
      })
    ).text;
    const reader = await mkPerson();
    await grant(reader.id, group, ["read"]);
    const asAdmin = await call(`/api/sl/for-entity/${assetId}`, { bearer: await admin() });
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body).toEqual([
      expect.objectContaining({
        link_id: id,
        manageable: true,
        time_range: [null, 4_000_000_000],
        has_password: true,
        acl: ["view"],
        email: ["a@example.com"],
        download_limit: 3,
        view_count: 0,
        download_count: 0,
        state: "active",
      }),
    ]);
    expect(asAdmin.text).not.toContain("scrypt");
    const asReader = await call(`/api/sl/for-entity/${assetId}`, { bearer: reader.bearer });
    expect(asReader.status).toBe(200);
    expect(asReader.body[0]).toMatchObject({ manageable: false, link_id: `${id.slice(0, 4)}…` });
    expect(asReader.text).not.toContain(id);
    const stranger = await mkPerson();
    expect((await call(`/api/sl/for-entity/${assetId}`, { bearer: stranger.bearer })).status).toBe(404);
  });

  it("edits a link (acl rules apply again), writes an event, and refuses a revoked one", async () => {
    const { assetId } = await assetInGroup();
    const id = (await create(assetId, { acl: ["view"] })).text;
    const bearer = await admin();
    const r = await call(`/api/sl/${id}`, {
      method: "PATCH",
      json: { acl: ["view", "download_original"], download_limit: 2, password: "new-pass" },
      bearer,
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ acl: ["view", "download_original"], download_limit: 2, has_password: true });
    expect((await call(`/api/sl/${id}`, { method: "PATCH", json: { acl: ["bogus"] }, bearer })).status).toBe(400);
    expect((await call(`/api/sl/${id}`, { method: "PATCH", json: { password: null }, bearer })).body.has_password).toBe(false);
    const evs = await db()
      .select()
      .from(events)
      .where(and(eq(events.entityId, id), eq(events.kind, "share-link.update")));
    expect(evs).toHaveLength(2);
    expect((await call(`/api/sl/${id}`, { method: "DELETE", bearer })).body.state).toBe("revoked");
    expect((await call(`/api/sl/${id}`, { method: "PATCH", json: { download_limit: 5 }, bearer })).status).toBe(410);
  });

  it("revokes: the link stops at once, stays listed with its counts, and repeating is harmless", async () => {
    const { assetId } = await assetInGroup();
    const id = (await create(assetId, { acl: ["view"] })).text;
    expect((await call(`/api/sl/info/${id}`)).status).toBe(200);
    const bearer = await admin();
    const r = await call(`/api/sl/${id}`, { method: "DELETE", bearer });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ state: "revoked", view_count: 1 });
    const info = await call(`/api/sl/info/${id}`);
    expect(info.status).toBe(410);
    expect(info.body.error.message).toBe("Ссылка отозвана");
    expect((await call(`/api/sl/${id}`, { method: "DELETE", bearer })).status).toBe(200);
    const evs = await db()
      .select()
      .from(events)
      .where(and(eq(events.entityId, id), eq(events.kind, "share-link.revoke")));
    expect(evs).toHaveLength(1);
  });

  it("lets the creator revoke even without acl any more; others need acl; strangers get 404", async () => {
    const { group, assetId } = await assetInGroup();
    const [sharer, reader, stranger] = await Promise.all([mkPerson(), mkPerson(), mkPerson()]);
    const rule = await grant(sharer.id, group, ["read", "acl"]);
    await grant(reader.id, group, ["read"]);
    const id = (await create(assetId, { acl: ["view"] }, sharer.bearer)).text;
    expect((await call(`/api/sl/${id}`, { method: "DELETE", bearer: reader.bearer })).status).toBe(403);
    expect((await call(`/api/sl/${id}`, { method: "DELETE", bearer: stranger.bearer })).status).toBe(404);
    await call(`/api/user/acl/${rule}`, { method: "DELETE", bearer: await admin() });
    await grant(sharer.id, group, ["read"]);
    expect((await call(`/api/sl/${id}`, { method: "DELETE", bearer: sharer.bearer })).status).toBe(200);
  });

  it("counts downloads and ends the link at its download limit", async () => {
    const { assetId } = await assetInGroup();
    const data = new TextEncoder().encode("hello share link");
    await uploadFile(await admin(), assetId, data, { name: "hello.txt", mime: "text/plain" });
    const id = (await create(assetId, { acl: ["download_original"], download_limit: 2 })).text;
    for (let i = 0; i < 2; i++) {
      const res = await api(`/api/sl/${id}/download/original`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe("hello share link");
      expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    }
    const third = await api(`/api/sl/${id}/download/original`);
    expect(third.status).toBe(410);
    expect(((await third.json()) as any).error.message).toBe("Лимит скачиваний по ссылке исчерпан");
    const row = await db().select().from(shareLinks).where(eq(shareLinks.linkId, id)).get();
    expect(row?.downloadCount).toBe(2);
    const evs = await db()
      .select()
      .from(events)
      .where(and(eq(events.entityId, id), eq(events.kind, "share-link.download")));
    expect(evs).toHaveLength(2);
  });
});
