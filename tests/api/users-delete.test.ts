import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { appPasswords, assets, groups, sessions, udwfWorkflows, users } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { admin, call, db, grant, mkGroup, mkPerson, uniq, VIRTUAL_ROOT } from "./fixtures";
import { createAsset } from "./uploads.helpers";

/** DELETE /api/user/{id}?heir=: what the user owns passes on, every way in ends, in one batch (decision 056). */

const remove = async (id: string, query = "", bearer?: string) =>
  call(`/api/user/${id}${query}`, { method: "DELETE", bearer: bearer ?? (await admin()) });
const adminId = async () => (await call("/api/auth/whoami", { bearer: await admin() })).body;

/** A user owning an asset, a group and a workflow, with an app password and a live session. */
async function owner() {
  const p = await mkPerson();
  const root = await mkGroup(VIRTUAL_ROOT);
  await grant(p.id, root, ["read", "create", "update"]);
  const group = await mkGroup(root, uniq("Своя"), p.bearer);
  // Unplaced: such an asset is reachable through its owner alone, which shows the heir really owns it.
  const asset = (await createAsset(p.bearer)).asset_id;
  const workflow = crypto.randomUUID();
  await db()
    .insert(udwfWorkflows)
    .values({ workflowId: workflow, owner: p.id, actor: p.id, name: uniq("Процесс"), ctime: nowSeconds(), mtime: nowSeconds() });
  expect((await call("/api/auth/app-passwords", { method: "POST", bearer: p.bearer, json: { name: "ноутбук" } })).status).toBe(200);
  return { p, group, asset, workflow };
}

const ownerOf = async (o: Awaited<ReturnType<typeof owner>>) => ({
  asset: (await db().select({ v: assets.owner }).from(assets).where(eq(assets.assetId, o.asset)).get())?.v,
  group: (await db().select({ v: groups.owner }).from(groups).where(eq(groups.groupId, o.group)).get())?.v,
  workflow: (await db().select({ v: udwfWorkflows.owner }).from(udwfWorkflows).where(eq(udwfWorkflows.workflowId, o.workflow)).get())?.v,
  actor: (await db().select({ v: udwfWorkflows.actor }).from(udwfWorkflows).where(eq(udwfWorkflows.workflowId, o.workflow)).get())?.v,
});

describe("DELETE /api/user/{id} with an heir", () => {
  it("passes assets, groups and workflows to the named heir and ends sessions and app passwords", async () => {
    const o = await owner();
    const heir = await mkPerson();
    expect((await call("/api/auth/whoami", { bearer: o.p.bearer })).status).toBe(200);

    expect((await remove(o.p.id, `?heir=${heir.id}`)).status).toBe(200);

    expect(await ownerOf(o)).toEqual({ asset: heir.id, group: heir.id, workflow: heir.id, actor: heir.id });
    expect((await call("/api/auth/whoami", { bearer: o.p.bearer })).status).toBe(401);
    expect(await db().select().from(sessions).where(eq(sessions.userId, o.p.id)).all()).toEqual([]);
    expect(await db().select().from(appPasswords).where(eq(appPasswords.userId, o.p.id)).all()).toEqual([]);
    expect(await db().select().from(users).where(eq(users.userId, o.p.id)).get()).toBeUndefined();
    // The heir now reaches the unplaced asset as its owner.
    expect((await call(`/api/auth/entity-access/${o.asset}`, { bearer: heir.bearer })).status).toBe(200);
  });

  it("gives everything to the deleting admin when no heir is named", async () => {
    const o = await owner();
    const me = (await adminId()).id as string;
    expect((await remove(o.p.id)).status).toBe(200);
    expect(await ownerOf(o)).toEqual({ asset: me, group: me, workflow: me, actor: me });
  });

  it.each([
    ["an unknown heir", () => `?heir=${crypto.randomUUID()}`],
    ["a heir that is not an id", () => "?heir=nobody"],
  ])("answers 400 naming heir for %s and deletes nothing", async (_, query) => {
    const o = await owner();
    const r = await remove(o.p.id, query());
    expect(r.status).toBe(400);
    expect(r.body.error.details.map((d: { field: string }) => d.field)).toContain("heir");
    expect(await ownerOf(o)).toEqual({ asset: o.p.id, group: o.p.id, workflow: o.p.id, actor: o.p.id });
    expect((await call("/api/auth/whoami", { bearer: o.p.bearer })).status).toBe(200);
  });

  it("refuses the user as their own heir", async () => {
    const o = await owner();
    const r = await remove(o.p.id, `?heir=${o.p.id}`);
    expect(r.status).toBe(400);
    expect(r.body.error.details.map((d: { field: string }) => d.field)).toContain("heir");
  });

  it("is admins' only", async () => {
    const o = await owner();
    const other = await mkPerson();
    expect((await remove(o.p.id, "", other.bearer)).status).toBe(403);
    expect((await call(`/api/user/${o.p.id}`, { method: "DELETE" })).status).toBe(401);
    expect(await ownerOf(o)).toMatchObject({ asset: o.p.id });
  });
});
