import { call } from "../fixtures";
import { adminOnly, onShared, open, ownedBy, signedIn, type Expectation, type PersonaName, type RouteCase, type World } from "./types";

/**
 * /api/shop (docs/decisions/048-shop.md). Everyone signed in shops; a product is seen by those who may read its
 * group (S here), so none and chrooted get 404 and never its title. Licences, products and the moves of orders
 * are the admins'; an order is seen by its buyer (the reader here) and admins only.
 */

interface ShopWorld {
  licence: string;
  /** A published product of S (a collection), and its offer. */
  product: string;
  offer: string;
  title: string;
}

const worlds = new WeakMap<World, Promise<ShopWorld>>();

async function adminCall(w: World, path: string, json?: unknown, method = json === undefined ? "GET" : "POST") {
  const r = await call(path, { method, json, bearer: w.adminBearer });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
  return r.body;
}

const freshLicence = async (w: World) =>
  (await adminCall(w, "/api/shop/licences", { name: `${w.tag} лицензия`, duration_days: 10 })).licence_id as string;

async function freshProduct(w: World, licence: string, publish = true) {
  const title = `${w.tag} товар ${crypto.randomUUID().slice(0, 6)}`;
  const { product_id } = await adminCall(w, "/api/shop/product", {
    group_id: w.shared.id,
    title,
    offers: [{ licence_id: licence, variant: "original", price: 1000 }],
  });
  if (publish) await adminCall(w, `/api/shop/product/${product_id}/publish`, { published: true });
  const p = await adminCall(w, `/api/shop/product/${product_id}`);
  return { product: product_id as string, offer: p.offers[0].offer_id as string, title };
}

function shopWorld(w: World) {
  let s = worlds.get(w);
  if (!s) {
    s = (async () => {
      const licence = await freshLicence(w);
      // A published product of P that no persona but the admin may see: its id in an answer is a leak.
      await adminCall(w, "/api/shop/product", {
        group_id: w.priv.id,
        title: `${w.tag} тайный`,
        offers: [{ licence_id: licence, variant: "proxy", price: 1 }],
      }).then((r) => adminCall(w, `/api/shop/product/${r.product_id}/publish`, { published: true }));
      return { licence, ...(await freshProduct(w, licence)) };
    })();
    worlds.set(w, s);
  }
  return s;
}

const bearerOf = (w: World, as: PersonaName) => (as === "anonymous" ? undefined : (w.users[as].bearer ?? undefined));

/** A line in the persona's own cart (for those who may see the product); answers its id or a random one. */
async function cartLine(w: World, as: PersonaName) {
  const s = await shopWorld(w);
  const r = await call("/api/shop/cart/items", {
    method: "POST",
    json: { product_id: s.product, offer_id: s.offer },
    bearer: bearerOf(w, as),
  });
  const mine = r.status === 200 ? r.body.items.find((i: { offer_id: string }) => i.offer_id === s.offer) : null;
  return (mine?.item_id as string | undefined) ?? crypto.randomUUID();
}

/** A fresh order placed by the reader; `approved` moves it on by the admin. */
async function readerOrder(w: World, approved = false) {
  const s = await shopWorld(w);
  const bearer = w.users.reader.bearer!;
  await call("/api/shop/cart/items", { method: "POST", json: { product_id: s.product, offer_id: s.offer }, bearer });
  const r = await call("/api/shop/checkout", { method: "POST", json: {}, bearer });
  if (r.status !== 200) throw new Error(`checkout: ${r.status} ${r.text}`);
  if (approved) await adminCall(w, `/api/shop/order/${r.body.order_id}/approve`, {});
  return r.body.order_id as string;
}

/** The order is the reader's: only they and admins see it. */
const buyerOnly = ownedBy("reader");
const withCart: Expectation = { ...onShared(200, 200, 200), none: 409, chrooted: 409 };

export const shopCases: RouteCase[] = [
  { route: "GET /api/shop/licences", request: () => ({ path: "/api/shop/licences" }), expect: signedIn(200) },
  {
    route: "POST /api/shop/licences",
    request: (w) => ({ method: "POST", path: "/api/shop/licences", json: { name: `${w.tag} новая` } }),
    expect: adminOnly(200),
  },
  {
    route: "PATCH /api/shop/licences/:id",
    request: async (w) => ({
      method: "PATCH",
      path: `/api/shop/licences/${(await shopWorld(w)).licence}`,
      json: { terms: "Эфир и интернет" },
    }),
    expect: adminOnly(200),
  },
  {
    route: "DELETE /api/shop/licences/:id",
    request: async (w) => ({ method: "DELETE", path: `/api/shop/licences/${await freshLicence(w)}` }),
    expect: adminOnly(200),
  },
  {
    route: "GET /api/shop/products",
    request: async (w) => ({ path: "/api/shop/products?take=100", secrets: [(await shopWorld(w)).title] }),
    expect: signedIn(200),
  },
  {
    route: "GET /api/shop/product/:id",
    request: async (w) => {
      const s = await shopWorld(w);
      return { path: `/api/shop/product/${s.product}`, secrets: [s.title] };
    },
    expect: onShared(200, 200),
  },
  {
    route: "POST /api/shop/product",
    request: async (w) => ({
      method: "POST",
      path: "/api/shop/product",
      json: {
        group_id: w.shared.id,
        title: `${w.tag} ещё`,
        offers: [{ licence_id: (await shopWorld(w)).licence, variant: "proxy", price: 5 }],
      },
    }),
    expect: adminOnly(200),
  },
  {
    route: "PATCH /api/shop/product/:id",
    request: async (w) => ({
      method: "PATCH",
      path: `/api/shop/product/${(await shopWorld(w)).product}`,
      json: { description: "Обновлено" },
    }),
    expect: adminOnly(200),
  },
  {
    route: "DELETE /api/shop/product/:id",
    request: async (w) => ({
      method: "DELETE",
      path: `/api/shop/product/${(await freshProduct(w, (await shopWorld(w)).licence, false)).product}`,
    }),
    expect: adminOnly(200),
  },
  {
    route: "POST /api/shop/product/:id/publish",
    request: async (w) => ({
      method: "POST",
      path: `/api/shop/product/${(await shopWorld(w)).product}/publish`,
      json: { published: true },
    }),
    expect: adminOnly(200),
  },
  { route: "GET /api/shop/cart", request: () => ({ path: "/api/shop/cart" }), expect: signedIn(200) },
  {
    route: "POST /api/shop/cart/items",
    request: async (w) => {
      const s = await shopWorld(w);
      return { method: "POST", path: "/api/shop/cart/items", json: { product_id: s.product, offer_id: s.offer }, secrets: [s.title] };
    },
    expect: onShared(200, 200),
  },
  {
    route: "DELETE /api/shop/cart/items/:id",
    request: async (w, as) => ({ method: "DELETE", path: `/api/shop/cart/items/${await cartLine(w, as)}` }),
    expect: onShared(200, 200),
  },
  {
    route: "POST /api/shop/checkout",
    request: async (w, as) => {
      await cartLine(w, as);
      return { method: "POST", path: "/api/shop/checkout", json: {} };
    },
    expect: withCart,
  },
  { route: "GET /api/shop/orders", request: () => ({ path: "/api/shop/orders" }), expect: signedIn(200) },
  { route: "GET /api/shop/orders/all", request: () => ({ path: "/api/shop/orders/all" }), expect: adminOnly(200) },
  {
    route: "GET /api/shop/order/:id",
    request: async (w) => ({ path: `/api/shop/order/${await readerOrder(w)}` }),
    expect: buyerOnly,
  },
  {
    route: "POST /api/shop/order/:id/approve",
    request: async (w) => ({ method: "POST", path: `/api/shop/order/${await readerOrder(w)}/approve` }),
    expect: adminOnly(200),
  },
  {
    route: "POST /api/shop/order/:id/reject",
    request: async (w) => ({ method: "POST", path: `/api/shop/order/${await readerOrder(w)}/reject`, json: { reason: "Нет в наличии" } }),
    expect: adminOnly(200),
  },
  {
    route: "POST /api/shop/order/:id/mark-paid",
    request: async (w) => ({ method: "POST", path: `/api/shop/order/${await readerOrder(w, true)}/mark-paid` }),
    expect: adminOnly(200),
  },
  {
    // A manual order the admin approved and marked paid (so delivered): its refund is recorded, its links revoked.
    route: "POST /api/shop/order/:id/refund",
    request: async (w) => {
      const id = await readerOrder(w, true);
      await adminCall(w, `/api/shop/order/${id}/mark-paid`, {});
      return { method: "POST", path: `/api/shop/order/${id}/refund` };
    },
    expect: adminOnly(200),
  },
  {
    route: "POST /api/shop/order/:id/cancel",
    request: async (w) => ({ method: "POST", path: `/api/shop/order/${await readerOrder(w)}/cancel` }),
    expect: buyerOnly,
  },
  {
    // Stripe is not configured in the matrix's Worker: the open route says so to everyone, before any signature check.
    route: "POST /api/shop/webhook/stripe",
    request: () => ({ method: "POST", path: "/api/shop/webhook/stripe", body: "{}", headers: { "Stripe-Signature": "t=1,v1=00" } }),
    expect: open(503),
  },
];
