import { z } from "@hono/zod-openapi";
import { entityId, idParam } from "../groups/schemas";

/** The shop's payloads (docs/decisions/048-shop.md). Shared with the front end: no server imports. */

export { idParam };

/** The same lists as db/schema/shop-orders.ts and shop-offers.ts (kept here so app/ need not import drizzle). */
export const orderStatuses = ["new", "awaiting_payment", "paid", "delivered", "rejected", "cancelled", "refunded", "disputed"] as const;
export type OrderStatus = (typeof orderStatuses)[number];
export const paymentProviders = ["manual", "stripe"] as const;
export const shopVariants = ["original", "proxy"] as const;

/** Days a delivery link works when the licence names no duration. */
export const DEFAULT_DELIVERY_DAYS = 30;
export const DEFAULT_CURRENCY = "RUB";
export const MAX_PRODUCTS_PAGE = 100;

const text = (max: number) =>
  z.string({ error: "обязательное поле" }).trim().min(1, "не может быть пустым").max(max, `не длиннее ${max} символов`);

export const currency = z
  .string()
  .regex(/^[A-Z]{3}$/, "код валюты ISO 4217 из трёх заглавных букв (RUB, EUR)")
  .default(DEFAULT_CURRENCY);

/** Prices are integers in minor units (копейки, cents): no rounding anywhere. */
export const price = z
  .number({ error: "должно быть числом" })
  .int("цена — целое число в копейках (центах)")
  .min(0, "не меньше 0")
  .max(100_000_000_00, "слишком большая цена");

export const licenceBody = z
  .object({
    name: text(200),
    terms: z.string().max(20_000, "не длиннее 20000 символов").default(""),
    duration_days: z.number().int("целое число дней").min(1, "не меньше 1").max(36_500, "не больше 36500").nullable().optional(),
  })
  .openapi("ShopLicenceBody");
export const licencePatch = z
  .object({
    name: text(200).optional(),
    terms: z.string().max(20_000, "не длиннее 20000 символов").optional(),
    duration_days: licenceBody.shape.duration_days,
  })
  .refine((b) => Object.keys(b).length > 0, "нужно хотя бы одно поле")
  .openapi("ShopLicencePatch");
export type LicenceBody = z.infer<typeof licenceBody>;
export type LicencePatch = z.infer<typeof licencePatch>;

export const licenceOut = z
  .object({ licence_id: z.string(), name: z.string(), terms: z.string(), duration_days: z.number().nullable() })
  .openapi("ShopLicence");
export type LicenceOut = z.infer<typeof licenceOut>;

export const offerBody = z.object({
  offer_id: entityId.optional().openapi({ description: "on PATCH: keep this offer (carts holding it keep it)" }),
  licence_id: entityId,
  variant: z.enum(shopVariants, { error: "original или proxy" }),
  price,
  currency,
});
export type OfferBody = z.infer<typeof offerBody>;

const offers = z
  .array(offerBody)
  .min(1, "нужно хотя бы одно предложение")
  .max(20, "не больше 20 предложений")
  .refine((o) => new Set(o.map((x) => `${x.licence_id}/${x.variant}`)).size === o.length, "лицензия и вариант не должны повторяться");

export const productBody = z
  .object({
    asset_id: entityId.optional(),
    group_id: entityId.optional().openapi({ description: "a collection: every file of the group is delivered" }),
    title: text(300),
    description: z.string().max(20_000, "не длиннее 20000 символов").default(""),
    offers,
  })
  .refine((b) => (b.asset_id === undefined) !== (b.group_id === undefined), {
    path: ["asset_id"],
    message: "нужен asset_id или group_id (одно из двух)",
  })
  .openapi("ShopProductBody");
export const productPatch = z
  .object({
    title: text(300).optional(),
    description: z.string().max(20_000, "не длиннее 20000 символов").optional(),
    offers: offers.optional().openapi({ description: "the whole list: offers missing from it are withdrawn" }),
  })
  .refine((b) => Object.keys(b).length > 0, "нужно хотя бы одно поле")
  .openapi("ShopProductPatch");
export type ProductBody = z.infer<typeof productBody>;
export type ProductPatch = z.infer<typeof productPatch>;
export const publishBody = z.object({ published: z.boolean({ error: "true или false" }) }).openapi("ShopPublishBody");

export const productsQuery = z.object({
  q: z.string().trim().max(200, "не длиннее 200 символов").optional(),
  group: entityId.optional().openapi({ description: "only the products of this collection (the group itself or assets in it)" }),
  all: z.enum(["true", "false"]).optional().openapi({ description: "admins: unpublished too" }),
  skip: z.coerce.number({ error: "должно быть числом" }).int().min(0, "не меньше 0").default(0),
  take: z.coerce
    .number({ error: "должно быть числом" })
    .int()
    .min(1, "не меньше 1")
    .max(MAX_PRODUCTS_PAGE, `не больше ${MAX_PRODUCTS_PAGE}`)
    .default(24),
});
export type ProductsQuery = z.infer<typeof productsQuery>;

/** What an offer sells, as the catalogue shows it and as an order item keeps it from the moment of purchase. */
const offerTerms = {
  licence_name: z.string(),
  licence_terms: z.string(),
  duration_days: z.number().nullable(),
  variant: z.enum(shopVariants),
  price: z.number(),
  currency: z.string(),
};
export const offerOut = z.object({
  offer_id: z.string(),
  licence_id: z.string(),
  ...offerTerms,
});
export const productOut = z
  .object({
    product_id: z.string(),
    asset_id: z.string().nullable(),
    group_id: z.string().nullable(),
    title: z.string(),
    description: z.string(),
    published: z.boolean(),
    mimetype: z.string().nullable(),
    preview: z.string().nullable().describe("an API path of the preview image (needs the bearer)"),
    offers: z.array(offerOut),
    ctime: z.number(),
  })
  .openapi("ShopProduct");
export type ProductOut = z.infer<typeof productOut>;
export const productsPage = z.object({ items: z.array(productOut), total: z.number() }).openapi("ShopProductsPage");
export const productIdOut = z.object({ product_id: z.string() }).openapi("ShopProductId");

export const cartItemBody = z.object({ product_id: entityId, offer_id: entityId }).openapi("ShopCartItemBody");
export const cartOut = z
  .object({
    items: z.array(
      z.object({
        item_id: z.string(),
        product_id: z.string(),
        offer_id: z.string(),
        title: z.string(),
        licence_name: z.string(),
        variant: z.enum(shopVariants),
        price: z.number(),
        currency: z.string(),
      }),
    ),
    total: z.number(),
    currency: z.string().nullable(),
    providers: z.array(z.enum(paymentProviders)).describe("the payment providers checkout offers"),
  })
  .openapi("ShopCart");
export type CartOut = z.infer<typeof cartOut>;

export const checkoutBody = z
  .object({
    provider: z
      .enum(paymentProviders, { error: "manual или stripe" })
      .optional()
      .openapi({ description: "default: stripe when configured, else manual" }),
    email: z
      .email("неверный адрес почты")
      .max(254)
      .optional()
      .openapi({ description: "where the delivery links are mailed (default: the login, if it is an address)" }),
  })
  .openapi("ShopCheckoutBody");

export const deliveryOut = z.object({ asset_id: z.string(), name: z.string(), url: z.string(), ends_at: z.number() });
export const orderItemOut = z.object({
  item_id: z.string(),
  product_id: z.string(),
  title: z.string(),
  ...offerTerms,
  delivery_url: z.string().nullable().describe("once delivered: the share link (a collection: its first file; all in deliveries)"),
  deliveries: z.array(deliveryOut),
});
export const orderOut = z
  .object({
    order_id: z.string(),
    user_id: z.string(),
    user_name: z.string().nullable(),
    email: z.string().nullable(),
    status: z.enum(orderStatuses),
    total: z.number(),
    currency: z.string(),
    provider: z.enum(paymentProviders),
    payment_url: z.string().nullable(),
    reason: z.string().nullable(),
    items: z.array(orderItemOut),
    ctime: z.number(),
    mtime: z.number(),
    paid_at: z.number().nullable(),
    delivered_at: z.number().nullable(),
  })
  .openapi("ShopOrder");
export type OrderOut = z.infer<typeof orderOut>;
export const ordersPage = z.object({ items: z.array(orderOut) }).openapi("ShopOrders");
export const checkoutOut = z
  .object({ order_id: z.string(), status: z.enum(orderStatuses), payment_url: z.string().nullable().optional() })
  .openapi("ShopCheckout");
export const ordersQuery = z.object({
  status: z.enum(orderStatuses, { error: `одно из: ${orderStatuses.join(", ")}` }).optional(),
});
export const rejectBody = z.object({ reason: text(2000) }).openapi("ShopRejectBody");
export const okOut = z.object({ ok: z.literal(true) }).openapi("ShopOk");

/** "12 345,67 ₽": minor units shown in the currency's major ones. */
export function formatPrice(minor: number, cur: string) {
  return new Intl.NumberFormat("ru-RU", { style: "currency", currency: cur }).format(minor / 100);
}
