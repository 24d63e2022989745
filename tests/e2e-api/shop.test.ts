import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freshWord, grant, groupOf, shown } from "./catalogue.helpers";
import { adminOf, personOf, servers, until } from "./runtime";

/**
 * The shop and WebDAV under `npm start`, over HTTP as their clients use them: an order from cart to a delivery link
 * that downloads the original signed out (the file goes up through the real upload protocol into the local R2 and
 * comes back through the share link), and a file put over WebDAV with an app password that the REST API and search
 * then show. Order transitions, share links and WebDAV's writes are SQL that differs between D1 and libSQL, so both
 * stores run every flow.
 */

const dir = mkdtempSync(path.join(tmpdir(), "mam-e2e-shop-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Order {
  order_id: string;
  status: string;
  items: { variant: string; delivery_url: string | null }[];
}

describe.each(servers())("shop and WebDAV on $store", ({ url }) => {
  it("an order approved and marked paid delivers a link that downloads the original, byte for byte, signed out", async () => {
    const admin = await adminOf(url);
    const group = await groupOf(admin, `Витрина ${freshWord("g")}`);
    // Random bytes: a delivery that served another file, a proxy or a truncated stream cannot match them.
    const original = randomBytes(300_000);
    const file = path.join(dir, `${freshWord("master")}.bin`);
    writeFileSync(file, original);
    const { assetId } = await admin.upload(file, "application/octet-stream", group);

    const { licence_id } = await admin.call("/api/shop/licences", { json: { name: `Эфир ${freshWord("l")}`, terms: "Только для эфира" } });
    const title = `Съёмка ${freshWord("p")}`;
    const { product_id } = await admin.call("/api/shop/product", {
      json: { asset_id: assetId, title, description: "Съёмка с воздуха", offers: [{ licence_id, variant: "original", price: 150_000 }] },
    });
    await admin.call(`/api/shop/product/${product_id}/publish`, { json: { published: true } });

    // A user who may read the group finds the product in the catalogue, puts it in the cart and checks out.
    const buyer = await personOf(admin);
    await grant(admin, buyer.id, group, ["read"]);
    const catalogue = await buyer.client.call<{ items: { product_id: string; title: string }[] }>(`/api/shop/products?group=${group}`);
    expect(catalogue.items.map((p) => p.title)).toEqual([title]);
    const product = await buyer.client.call<{ offers: { offer_id: string }[] }>(`/api/shop/product/${product_id}`);
    await buyer.client.call("/api/shop/cart/items", { json: { product_id, offer_id: product.offers[0].offer_id } });
    const placed = await buyer.client.call<Order>("/api/shop/checkout", { json: {} });
    expect(placed.status).toBe("new");

    expect((await admin.call<Order>(`/api/shop/order/${placed.order_id}/approve`, { method: "POST" })).status).toBe("awaiting_payment");
    await admin.call(`/api/shop/order/${placed.order_id}/mark-paid`, { method: "POST" });
    // The buyer's view of the order, as "Мои заказы" shows it, once the delivery link is in it.
    const delivered = await until("the order delivered with its link", async () => {
      const o = await buyer.client.call<Order>(`/api/shop/order/${placed.order_id}`);
      return o.status === "delivered" && o.items[0]?.delivery_url ? o : null;
    });
    const link = new URL(delivered.items[0].delivery_url as string);
    // The link is on this server: what the buyer is sent opens here.
    expect(link.origin).toBe(url);
    const linkId = link.pathname.split("/sl/")[1];

    // Signed out (no Authorization, no cookie): the original, whole; the licence does not cover the proxy.
    const got = await fetch(`${url}/api/sl/${linkId}/download/original`);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(original)).toBe(true);
    expect((await fetch(`${url}/api/sl/${linkId}/download/proxy`)).ok).toBe(false);
  });

  it("a file PUT over WebDAV with an app password appears in the group's listing, whole, and is found by search", async () => {
    const admin = await adminOf(url);
    const group = await groupOf(admin, `Диск ${freshWord("g")}`);
    const user = await personOf(admin);
    // Rights a disk user has: see, add files, and take them back.
    await grant(admin, user.id, group, ["read", "create", "download"]);
    // What a WebDAV client is given: an app password (Basic: login + it) and the group's address in the user's tree.
    const { password } = await user.client.call<{ password: string }>("/api/auth/app-passwords", { json: { name: "Проводник" } });
    const { path: groupPath } = await user.client.call<{ path: string }>(`/api/auth/dav-path/${group}`);
    const word = freshWord("dav");
    const name = `Заметка ${word}.txt`;
    const body = `Текст, положенный через WebDAV: ${word}\n`.repeat(50);
    const basic = `Basic ${Buffer.from(`${user.login}:${password}`).toString("base64")}`;

    const put = await fetch(`${url}${groupPath}${encodeURIComponent(name)}`, {
      method: "PUT",
      headers: { Authorization: basic, "Content-Type": "text/plain" },
      body,
    });
    expect(put.status).toBe(201);
    // The very next request is the search: a WebDAV write is not followed by the API's after-change indexing, so
    // only the search's own catch-up (or a cron tick, seconds away) can have indexed it.
    expect(await shown(user.client, word, { group })).toEqual({ total: 1, names: [name] });

    const listing = await user.client.call<{ el_id: string; el_type: string; el_info: { name: string; var_size: number | null } }[]>(
      `/api/group/members/${group}`,
    );
    expect(listing.map((m) => [m.el_type, m.el_info.name, m.el_info.var_size])).toEqual([["asset", name, Buffer.byteLength(body)]]);
    const { variants } = (
      await user.client.call<{ variants: { variant_id: string }[] }[]>("/api/asset/version-by-ids", {
        json: { ids: [listing[0].el_id] },
      })
    )[0];
    expect((await user.client.bytes(`/api/asset/content/download-variant/${variants[0].variant_id}`)).toString()).toBe(body);
    expect((await shown(admin, word)).names).toEqual([name]);
  });
});
