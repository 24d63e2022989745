import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { assets } from "../../db/schema";
import { admin, call, db, grant, mkGroup, mkPerson, placeAsset, uniq, VIRTUAL_ROOT } from "./fixtures";
import { createAsset, uploadFile } from "./uploads.helpers";

/** «Удалённые»: GET /api/group/deleted, restore under a taken name, purge with the assets placed only there. */

const post = async (path: string, json: unknown, bearer?: string) =>
  call(path, { method: "POST", json, bearer: bearer ?? (await admin()) });
const del = async (id: string, bearer?: string) => call(`/api/group/delete/${id}`, { method: "DELETE", bearer: bearer ?? (await admin()) });
type Row = { group_id: string; group_name: string; deleted_by: string | null; deleted_by_name: string | null } & Record<string, unknown>;
const deleted = async (bearer?: string, query = "take=200"): Promise<Row[]> =>
  (await call(`/api/group/deleted?${query}`, { bearer: bearer ?? (await admin()) })).body;

describe("GET /api/group/deleted", () => {
  it("lists a user's own deletes with who and where, one row per delete; admins see everyone's", async () => {
    const root = await mkGroup(VIRTUAL_ROOT, uniq("Корень"));
    const u = await mkPerson();
    const other = await mkPerson();
    await grant(u.id, root, ["read", "create", "delete"]);
    await grant(other.id, root, ["read", "create", "delete"]);
    const a = await mkGroup(root, uniq("Архив"), u.bearer);
    const inner = await mkGroup(a, uniq("Внутри"), u.bearer);
    expect((await del(a, u.bearer)).status).toBe(200);

    const mine = await deleted(u.bearer);
    const row = mine.find((r) => r.group_id === a);
    expect(row).toMatchObject({ parent_id: root, deleted_by: u.id, groups: 2, purge_assets: 0, purge_bytes: 0 });
    expect(row?.deleted_by_name).toBeTruthy();
    expect(row?.parent_name).toMatch(/^Корень/);
    // The subgroup came down with its parent: it is restored with it, so it is no row of its own.
    expect(mine.map((r) => r.group_id)).not.toContain(inner);
    expect((await deleted(other.bearer)).map((r) => r.group_id)).not.toContain(a);
    expect((await deleted()).map((r) => r.group_id)).toContain(a);

    expect((await post("/api/group/restore", { ids: [a] }, u.bearer)).status).toBe(200);
    expect((await deleted(u.bearer)).map((r) => r.group_id)).not.toContain(a);
  });

  it.each([
    ["take", "take=0"],
    ["skip", "skip=-1"],
    ["take", "take=abc"],
  ])("answers 400 naming %s", async (field, query) => {
    const r = await call(`/api/group/deleted?${query}`, { bearer: await admin() });
    expect(r.status).toBe(400);
    expect(r.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it("answers 401 without a session", async () => {
    expect((await call("/api/group/deleted")).status).toBe(401);
  });
});

describe("restore into a taken name", () => {
  it("keeps the live sibling's name and renames the restored group «… (восстановлено)», then «… (восстановлено 2)»", async () => {
    const root = await mkGroup(VIRTUAL_ROOT);
    const name = uniq("Съёмка");
    const first = await mkGroup(root, name);
    await del(first);
    const second = await mkGroup(root, name);
    await del(second);
    await mkGroup(root, name);

    expect((await post("/api/group/restore", { ids: [first] })).status).toBe(200);
    expect((await call(`/api/group/get/${first}`, { bearer: await admin() })).body.group_name).toBe(`${name} (восстановлено)`);
    expect((await post("/api/group/restore", { ids: [second] })).status).toBe(200);
    expect((await call(`/api/group/get/${second}`, { bearer: await admin() })).body.group_name).toBe(`${name} (восстановлено 2)`);
  });
});

describe("purge", () => {
  it("counts, then deletes, the assets placed only in the purged subtree; one placed elsewhere stays", async () => {
    const bearer = await admin();
    const root = await mkGroup(VIRTUAL_ROOT);
    const bin = await mkGroup(root, uniq("Корзина"));
    const sub = await mkGroup(bin);
    const keep = await mkGroup(root);
    const only = (await createAsset(bearer, { in_group: sub })).asset_id;
    await uploadFile(bearer, only, new Uint8Array(1234).fill(7));
    const shared = (await createAsset(bearer, { in_group: bin })).asset_id;
    await uploadFile(bearer, shared, new Uint8Array(99).fill(1));
    await placeAsset(keep, shared);
    await del(bin);

    const row = (await deleted()).find((r) => r.group_id === bin);
    expect(row).toMatchObject({ groups: 2, purge_assets: 1, purge_bytes: 1234 });

    expect((await post("/api/group/purge", { ids: [bin] })).status).toBe(200);
    const left = await db()
      .select({ id: assets.assetId })
      .from(assets)
      .where(inArray(assets.assetId, [only, shared]))
      .all();
    expect(left.map((r) => r.id)).toEqual([shared]);
    expect((await call(`/api/auth/entity-access/${shared}`, { bearer })).status).toBe(200);
    expect((await deleted()).map((r) => r.group_id)).not.toContain(bin);
    expect(await db().select().from(assets).where(eq(assets.assetId, only)).get()).toBeUndefined();
  });
});
