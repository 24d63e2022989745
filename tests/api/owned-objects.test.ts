import { describe, expect, it } from "vitest";
import { admin, call, grant, mkGroup, mkPerson, uniq, VIRTUAL_ROOT } from "./fixtures";
import { buyer, mkLicence, mkProduct, order, shelf } from "./shop.helpers";
import { createAsset, json, startUpload } from "./uploads.helpers";

/**
 * Owned objects under the permission engine (docs/decisions/064-owned-objects-in-the-engine.md): an upload, an order,
 * a workflow or a user's own storage choice answers its owner and admins; anyone else gets exactly what a missing id
 * gets (status and body, but for the request id), so the answer never tells that the object exists.
 */

const missing = "00000000-0000-4000-8000-000000000000";

/** The owner and an admin get 200; a stranger gets the answer of a missing id. */
async function ownedOnly(path: (id: string) => string, id: string, owner: string) {
  const stranger = await mkPerson();
  expect((await call(path(id), { bearer: owner })).status).toBe(200);
  expect((await call(path(id), { bearer: await admin() })).status).toBe(200);
  const theirs = await call(path(id), { bearer: stranger.bearer });
  const none = await call(path(missing), { bearer: stranger.bearer });
  // Everything but the request's own id is the same.
  const withoutRequest = (b: { error: Record<string, unknown> }) => ({ ...b.error, requestId: undefined });
  expect(theirs.status).toBe(404);
  expect(none.status).toBe(404);
  expect(withoutRequest(theirs.body)).toEqual(withoutRequest(none.body));
  return theirs.body;
}

describe("owned objects answer their owner and admins only", () => {
  it("an upload is its starter's", async () => {
    const group = await mkGroup(VIRTUAL_ROOT);
    const starter = await mkPerson();
    await grant(starter.id, group, ["read", "update"]);
    const { asset_id } = await createAsset(await admin(), { in_group: group });
    const up = await json(startUpload(starter.bearer, { asset_id, size: 10, name: "a.pdf", mime: "application/pdf" }));
    const body = await ownedOnly((id) => `/api/ul/${id}`, up.upload_id, starter.bearer);
    expect(body.error.message).toBe("Загрузка не найдена");
  });

  it("an order is its buyer's", async () => {
    const { group, asset } = await shelf();
    const licence = await mkLicence();
    const product = await mkProduct({ asset_id: asset }, [[licence.licence_id, "proxy", 500]]);
    const b = await buyer(group);
    const placed = await order(b.bearer, [{ product_id: product.product_id, offer_id: product.offers[0].offer_id }]);
    const body = await ownedOnly((id) => `/api/shop/order/${id}`, placed.order_id, b.bearer);
    expect(body.error.message).toBe("Заказ не найден");
  });

  it("a workflow is its owner's (and whoever it is shared with, tests/api/automations-shares.test.ts)", async () => {
    const owner = await mkPerson();
    const created = await call("/api/udwf/workflow", { method: "POST", json: { name: uniq("Автоматизация") }, bearer: owner.bearer });
    expect(created.status).toBe(200);
    const body = await ownedOnly((id) => `/api/udwf/workflow/${id}`, created.body.workflow_id, owner.bearer);
    expect(body.error.message).toBe("Автоматизация не найдена");
  });

  it("a user's storage choice is the user's", async () => {
    const user = await mkPerson();
    const body = await ownedOnly((id) => `/api/storage/for-entity/${id}`, user.id, user.bearer);
    expect(body.error.message).toBe("Объект не найден");
  });
});
