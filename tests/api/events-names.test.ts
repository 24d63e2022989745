import { beforeAll, describe, expect, it } from "vitest";
import { admin, call, grant, mkGroup, mkPerson, type Person, placeAsset, uniq, VIRTUAL_ROOT } from "./fixtures";
import { createAsset, randomBytes, uploadFile } from "./uploads.helpers";

/**
 * The names an event keeps (docs/decisions/057-readable-history.md): written with the event, so a deleted object
 * still reads by name; and shown only to a reader who may read the named object.
 */

type Name = { type: string; name: string; num?: number; version?: number };
type Item = {
  kind: string;
  entity_id: string | null;
  entity_name: string | null;
  user_id: string | null;
  user_name: string | null;
  data: Record<string, unknown> | null;
  names: Record<string, Name>;
};

const list = async (json: Record<string, unknown>, bearer?: string) => {
  const r = await call("/api/global-events/list", { method: "POST", json, bearer: bearer ?? (await admin()) });
  if (r.status !== 200) throw new Error(`list: ${r.status} ${r.text}`);
  return r.body.items as Item[];
};

let open: string;
let closed: string;
let reader: Person;

beforeAll(async () => {
  const top = await mkGroup(VIRTUAL_ROOT, uniq("Имена"));
  open = await mkGroup(top, uniq("Открытая"));
  closed = await mkGroup(top, uniq("Закрытая"));
  reader = await mkPerson();
  await grant(reader.id, open, ["read"]);
});

describe("names kept in events", () => {
  it("names the asset, its variant, the upload and the actor of an upload", async () => {
    const bearer = await admin();
    const { asset_id } = await createAsset(bearer, { asset_name: "Интервью с министром.mp4", in_group: open });
    await uploadFile(bearer, asset_id, randomBytes(1000), { name: "interview.mp4" });
    const [done] = await list({ entity: { id: asset_id }, kinds: ["upload.complete"] });
    const variant = done.data?.variant_id as string;
    expect(done.names[asset_id]).toEqual({ type: "asset", name: "Интервью с министром.mp4" });
    expect(done.names[variant]).toMatchObject({ type: "variant", version: 1 });
    expect(done.names[done.data?.upload_id as string]).toEqual({ type: "upload", name: "interview.mp4" });
    expect(done.names[done.user_id as string]).toMatchObject({ type: "user", name: done.user_name });
  });

  it("reads a deleted asset by the name it had", async () => {
    const bearer = await admin();
    const { asset_id } = await createAsset(bearer, { asset_name: "Удаляемый ролик.mp4", in_group: open });
    const r = await call("/api/asset/delete-list", { method: "POST", json: { ids: [asset_id] }, bearer });
    expect(r.status, r.text).toBe(200);
    const [deleted] = await list({ entity: { id: asset_id }, kinds: ["asset.delete"] });
    // The row is gone; the event still says what was deleted.
    expect(deleted.entity_name).toBe("Удаляемый ролик.mp4");
    expect(deleted.names[asset_id]).toEqual({ type: "asset", name: "Удаляемый ролик.mp4" });
  });

  it("shows a reader the names of what they may read, and neither the name nor the id of the rest", async () => {
    const bearer = await admin();
    // Created in the closed group, then also placed in the open one: the reader reads the asset, not the group.
    const { asset_id } = await createAsset(bearer, { asset_name: "В двух группах.mp4", in_group: closed });
    await placeAsset(open, asset_id);
    const child = await mkGroup(open, uniq("Вложенная"));

    const [created] = await list({ entity: { id: asset_id }, kinds: ["asset.create"] }, reader.bearer);
    expect(created.entity_name).toBe("В двух группах.mp4");
    expect(created.names[asset_id]).toMatchObject({ type: "asset" });
    expect(created.names[closed]).toBeUndefined();
    expect(created.data?.group).toBeUndefined();
    expect(JSON.stringify(created)).not.toContain("Закрытая");
    // The admin who made it is the actor: the list names actors to everyone.
    expect(created.names[created.user_id as string]).toMatchObject({ type: "user" });

    const [made] = await list({ entity: { id: child }, kinds: ["group.created"] }, reader.bearer);
    expect(made.data?.parent).toBe(open);
    expect(made.names[open]).toMatchObject({ type: "group" });

    // An admin sees every name, the closed group's too.
    const [all] = await list({ entity: { id: asset_id }, kinds: ["asset.create"] });
    expect(all.names[closed]).toMatchObject({ type: "group" });
    expect(all.data?.group).toBe(closed);
  });
});
