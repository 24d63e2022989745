import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { shareLinks } from "../../db/schema";
import { admin, db } from "./fixtures";
import { api } from "./helpers";
import { buyer, mkLicence, mkProduct, ok, order, originalBytes, proxyBytes, shelf } from "./shop.helpers";
import { createAsset, uploadFile } from "./uploads.helpers";

/** Delivery links: the licensed variant, signed out, for the licence's duration (or 30 days), then no more. */

async function paid(bearer: string, lines: { product_id: string; offer_id: string }[]) {
  const placed = await order(bearer, lines);
  await ok(`/api/shop/order/${placed.order_id}/approve`, { method: "POST" });
  await ok(`/api/shop/order/${placed.order_id}/mark-paid`, { method: "POST" });
  return ok(`/api/shop/order/${placed.order_id}`, { bearer });
}

const linkId = (url: string) => url.split("/sl/")[1];
const windowOf = async (id: string) => db().select().from(shareLinks).where(eq(shareLinks.linkId, id)).get();

describe("delivery links", () => {
  it("last the licence's duration, or 30 days, and stop working after it", async () => {
    const s = await shelf();
    const week = await mkLicence({ duration_days: 7 });
    const open = await mkLicence();
    const product = await mkProduct({ asset_id: s.asset }, [
      [week.licence_id, "proxy", 100],
      [open.licence_id, "original", 200],
    ]);
    const user = await buyer(s.group);
    const o = await paid(
      user.bearer,
      product.offers.map((x) => ({ product_id: product.product_id, offer_id: x.offer_id })),
    );
    const [proxyItem, originalItem] = [o.items.find((i: any) => i.variant === "proxy"), o.items.find((i: any) => i.variant === "original")];

    const weekLink = (await windowOf(linkId(proxyItem.delivery_url)))!;
    expect(weekLink.endsAt! - weekLink.startsAt!).toBe(7 * 86_400);
    expect(weekLink.acl).toEqual(["download_proxy"]);
    expect(proxyItem.deliveries[0].ends_at).toBe(weekLink.endsAt);
    const monthLink = (await windowOf(linkId(originalItem.delivery_url)))!;
    expect(monthLink.endsAt! - monthLink.startsAt!).toBe(30 * 86_400);

    // Signed out, within the window: the licensed bytes.
    const got = await api(`/api/sl/${linkId(proxyItem.delivery_url)}/download/proxy`);
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(proxyBytes);
    const orig = await api(`/api/sl/${linkId(originalItem.delivery_url)}/download/original`);
    expect(new Uint8Array(await orig.arrayBuffer())).toEqual(originalBytes);

    // The window as it will be a second after the licence ends: the link is gone (410).
    const shift = weekLink.endsAt! - weekLink.startsAt! + 1;
    await db()
      .update(shareLinks)
      .set({ startsAt: weekLink.startsAt! - shift, endsAt: weekLink.endsAt! - shift })
      .where(eq(shareLinks.linkId, weekLink.linkId));
    expect((await api(`/api/sl/${weekLink.linkId}/download/proxy`)).status).toBe(410);
    expect((await api(`/api/sl/${linkId(originalItem.delivery_url)}/download/original`)).status).toBe(200);
  });

  it("a collection delivers a link for every file of its group", async () => {
    const s = await shelf();
    const { asset_id } = await createAsset(await admin(), { in_group: s.group, asset_name: "второй.mp4", asset_mime: "video/mp4" });
    await uploadFile(await admin(), asset_id, new TextEncoder().encode("второй"), { name: "второй.mp4", mime: "video/mp4" });
    const lic = await mkLicence();
    const product = await mkProduct({ group_id: s.group }, [[lic.licence_id, "original", 1_000]]);
    const user = await buyer(s.group);
    const o = await paid(user.bearer, [{ product_id: product.product_id, offer_id: product.offers[0].offer_id }]);
    const deliveries = o.items[0].deliveries as { asset_id: string; url: string }[];
    expect(deliveries.map((d) => d.asset_id).sort()).toEqual([s.asset, asset_id].sort());
    const second = deliveries.find((d) => d.asset_id === asset_id)!;
    const res = await api(`/api/sl/${linkId(second.url)}/download/original`);
    expect(new TextDecoder().decode(await res.arrayBuffer())).toBe("второй");
  });
});
