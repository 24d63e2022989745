import { beforeAll, describe, expect, it } from "vitest";
import { admin, call, mkGroup, mkPerson, VIRTUAL_ROOT, type Person } from "./fixtures";
import { api } from "./helpers";
import { mkMediaAsset, T } from "./tasks.helpers";

/**
 * An asset in no group belongs to its owner (every asset right) and admins; a stranger gets 404 as for
 * a missing asset. One rule in the permission engine (assetPermissions / assetFilter), so every path
 * agrees: downloads, share links, task starts, preview lists, the asset card and entity-access, lists.
 */

async function unplaced() {
  const [owner, stranger] = await Promise.all([mkPerson(), mkPerson()]);
  const asset = await mkMediaAsset(null, owner.id);
  return { owner, stranger, ...asset };
}

const download = (p: Person, a: { assetId: string; variantId: string }) =>
  api(`/api/asset/content/download/${a.assetId}/1/${a.variantId}`, { bearer: p.bearer });
const share = (p: Person, assetId: string) =>
  call(`/api/sl/create/${assetId}`, { method: "POST", json: { acl: ["view", "download_original"] }, bearer: p.bearer });
const startTask = (p: Person, assetId: string) =>
  call(`/api/tasklist/enqueue-task/${assetId}`, {
    method: "POST",
    json: { template_id: T.proxyLow, priority: 0, hold: true },
    bearer: p.bearer,
  });
const previews = (p: Person, assetId: string) =>
  call("/api/asset/content/preview-by-list", { method: "POST", json: { ids: [assetId] }, bearer: p.bearer });

describe("an asset in no group", () => {
  // The first admin is made on the first request while no user exists: before the test users.
  beforeAll(async () => void (await admin()));

  it("its owner downloads it; a stranger gets 404", async () => {
    const a = await unplaced();
    const mine = await download(a.owner, a);
    expect(mine.status).toBe(200);
    expect(await mine.text()).toBe("not really a video");
    expect((await download(a.stranger, a)).status).toBe(404);
  });

  it("its owner shares it and the link serves the original; a stranger cannot create a link", async () => {
    const a = await unplaced();
    const link = await share(a.owner, a.assetId);
    expect(link.status).toBe(200);
    const info = await call(`/api/sl/info/${link.text}`);
    expect(info.body.download).toBe(`/api/sl/${link.text}/download/original`);
    expect(await (await api(`/api/sl/${link.text}/download/original`)).text()).toBe("not really a video");
    expect((await share(a.stranger, a.assetId)).status).toBe(404);
  });

  it("its owner starts a task on it and sees it listed; a stranger gets 404 and no row", async () => {
    const a = await unplaced();
    const started = await startTask(a.owner, a.assetId);
    expect(started.status).toBe(200);
    expect(started.body.asset_id).toBe(a.assetId);
    expect((await startTask(a.stranger, a.assetId)).status).toBe(404);
    const listed = async (p: Person) =>
      (await call(`/api/tasklist/current?take=100`, { bearer: p.bearer })).body.map((t: { job_id: string }) => t.job_id);
    expect(await listed(a.owner)).toContain(started.body.job_id);
    expect(await listed(a.stranger)).not.toContain(started.body.job_id);
  });

  it("its owner gets the preview list; a stranger gets 404", async () => {
    const a = await unplaced();
    const mine = await previews(a.owner, a.assetId);
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual([{ id: a.assetId, variant_id: null, preview: null }]);
    expect((await previews(a.stranger, a.assetId)).status).toBe(404);
  });

  it("the asset card and entity-access give its owner every asset right, the same list", async () => {
    const a = await unplaced();
    const everyAssetRight = ["read", "update", "delete", "acl", "superuser", "download", "execute"];
    const card = await call(`/api/asset/${a.assetId}`, { bearer: a.owner.bearer });
    expect(card.status).toBe(200);
    expect([...card.body.asset_access].sort()).toEqual([...everyAssetRight].sort());
    const access = await call(`/api/auth/entity-access/${a.assetId}`, { bearer: a.owner.bearer });
    expect(access.status).toBe(200);
    expect(access.body).toEqual({ id: a.assetId, type: "asset", acl: card.body.asset_access });
    expect((await call(`/api/auth/entity-access/${a.assetId}`, { bearer: a.stranger.bearer })).status).toBe(404);
    expect((await call(`/api/asset/${a.assetId}`, { bearer: a.stranger.bearer })).status).toBe(404);
  });

  it("is no longer its owner's alone once placed: in a group the owner cannot read, even the owner gets 404", async () => {
    const a = await unplaced();
    const group = await mkGroup(VIRTUAL_ROOT);
    expect(
      (
        await call("/api/group/insert-members", {
          method: "POST",
          json: { group_id: group, members: [{ el_id: a.assetId, el_type: "asset" }] },
          bearer: await admin(),
        })
      ).status,
    ).toBe(200);
    expect((await download(a.owner, a)).status).toBe(404);
    expect((await startTask(a.owner, a.assetId)).status).toBe(404);
  });

  it("whose only group is deleted is nobody's until a restore, its owner's neither", async () => {
    const owner = await mkPerson();
    const group = await mkGroup(VIRTUAL_ROOT);
    const a = await mkMediaAsset(group, owner.id);
    expect((await call(`/api/group/delete/${group}`, { method: "DELETE", bearer: await admin() })).status).toBe(200);
    expect((await download(owner, a)).status).toBe(404);
    expect((await share(owner, a.assetId)).status).toBe(404);
    expect((await api(`/api/asset/content/download/${a.assetId}/1/${a.variantId}`, { bearer: await admin() })).status).toBe(200);
  });
});
