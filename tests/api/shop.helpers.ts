import { expect } from "vitest";
import { admin, call, grant, mkGroup, mkPerson, uniq, VIRTUAL_ROOT } from "./fixtures";
import { createAsset, randomBytes, uploadFile } from "./uploads.helpers";

/** Set-up for the shop's tests: a readable group with a file (original + proxy), licences, products, buyers. */

export const originalBytes = randomBytes(3_000, 11);
export const proxyBytes = randomBytes(1_000, 12);

export async function ok(path: string, init: Parameters<typeof call>[1] = {}) {
  const r = await call(path, { bearer: init.bearer ?? (await admin()), ...init });
  expect(r.status, `${init.method ?? "GET"} ${path}: ${r.text}`).toBe(200);
  return r.body;
}

/** A group with one file (original and a proxy) in it. */
export async function shelf(name = uniq("Витрина")) {
  const bearer = await admin();
  const group = await mkGroup(VIRTUAL_ROOT, name);
  const { asset_id } = await createAsset(bearer, { in_group: group, asset_name: `${name}.mp4`, asset_mime: "video/mp4" });
  await uploadFile(bearer, asset_id, originalBytes, { name: `${name}.mp4`, mime: "video/mp4" });
  await uploadFile(bearer, asset_id, proxyBytes, {
    name: `${name}-proxy.mp4`,
    mime: "video/mp4",
    version: 1,
    variant_type: "proxy_lowres",
  });
  return { group, asset: asset_id as string, name };
}

export const mkLicence = (body: Record<string, unknown> = {}) =>
  ok("/api/shop/licences", { method: "POST", json: { name: uniq("Лицензия"), terms: "Только для эфира", ...body } }) as Promise<{
    licence_id: string;
    duration_days: number | null;
  }>;

/** A published product of `target` with one offer per [licence, variant, price]. */
export async function mkProduct(
  target: { asset_id: string } | { group_id: string },
  offers: [string, "original" | "proxy", number][],
  opts: { publish?: boolean; title?: string } = {},
) {
  const { product_id } = await ok("/api/shop/product", {
    method: "POST",
    json: {
      ...target,
      title: opts.title ?? uniq("Товар"),
      description: "Съёмка с воздуха",
      offers: offers.map(([licence_id, variant, price]) => ({ licence_id, variant, price })),
    },
  });
  if (opts.publish !== false) await ok(`/api/shop/product/${product_id}/publish`, { method: "POST", json: { published: true } });
  const product = await ok(`/api/shop/product/${product_id}`);
  return product as { product_id: string; offers: { offer_id: string; price: number }[]; title: string };
}

/** A signed-in user who may read `group`. */
export async function buyer(group: string) {
  const p = await mkPerson();
  await grant(p.id, group, ["read"]);
  return p;
}

/** Puts offers in the buyer's cart and checks out; answers the order id. */
export async function order(bearer: string, lines: { product_id: string; offer_id: string }[], body: Record<string, unknown> = {}) {
  for (const l of lines) await ok("/api/shop/cart/items", { method: "POST", json: l, bearer });
  const placed = await ok("/api/shop/checkout", { method: "POST", json: body, bearer });
  return placed as { order_id: string; status: string; payment_url?: string | null };
}
