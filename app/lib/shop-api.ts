import type { z } from "zod";
import type {
  cartOut,
  licenceBody,
  licenceOut,
  orderOut,
  productBody,
  ordersQuery,
  productOut,
  productPatch,
  productsPage,
} from "../../shared/shop/schemas";
import * as shop from "../../shared/shop/contract";
import { call } from "./api";

/** The shop's calls (/api/shop); types from the API's own schemas. */
export type Product = z.infer<typeof productOut>;
export type ProductsPage = z.infer<typeof productsPage>;
export type Cart = z.infer<typeof cartOut>;
export type Order = z.infer<typeof orderOut>;
export type Licence = z.infer<typeof licenceOut>;
export type ProductInput = z.input<typeof productBody>;
type OrdersQuery = z.input<typeof ordersQuery>;

export const listProducts = (query: { q?: string; group?: string; all?: boolean; skip?: number; take?: number }, signal?: AbortSignal) =>
  call(shop.listProducts, { query: { ...query, all: query.all ? "true" : undefined }, signal });
export const getProduct = (id: string, signal?: AbortSignal) => call(shop.getProduct, { params: { id }, signal });
export const createProduct = (body: ProductInput) => call(shop.createProduct, { body });
export const patchProduct = (id: string, body: z.input<typeof productPatch>) => call(shop.patchProduct, { params: { id }, body });
export const deleteProduct = (id: string) => call(shop.deleteProduct, { params: { id } });
export const publishProduct = (id: string, published: boolean) => call(shop.publishProduct, { params: { id }, body: { published } });

export const listLicences = (signal?: AbortSignal) => call(shop.listLicences, { signal });
export const createLicence = (body: z.input<typeof licenceBody>) => call(shop.createLicence, { body });
export const patchLicence = (id: string, body: Partial<z.input<typeof licenceBody>>) => call(shop.patchLicence, { params: { id }, body });
export const deleteLicence = (id: string) => call(shop.deleteLicence, { params: { id } });

export const getCart = (signal?: AbortSignal) => call(shop.getCart, { signal });
export const addToCart = (product_id: string, offer_id: string) => call(shop.addToCart, { body: { product_id, offer_id } });
export const removeFromCart = (id: string) => call(shop.removeFromCart, { params: { id } });

export const checkout = (body: { provider?: "manual" | "stripe"; email?: string }) => call(shop.checkout, { body });
export const myOrders = (signal?: AbortSignal) => call(shop.myOrders, { signal });
export const allOrders = (status: string | null, signal?: AbortSignal) =>
  call(shop.allOrders, { query: { status: (status ?? undefined) as OrdersQuery["status"] }, signal });
export const getOrder = (id: string, signal?: AbortSignal) => call(shop.getOrder, { params: { id }, signal });
const orderActions = { approve: shop.approveOrder, "mark-paid": shop.markPaid, refund: shop.refundOrder } as const;
export const orderAction = (id: string, action: "approve" | "mark-paid" | "reject" | "refund", reason?: string) =>
  action === "reject"
    ? call(shop.rejectOrder, { params: { id }, body: { reason: reason ?? "" } })
    : call(orderActions[action], { params: { id } });
export const cancelOrder = (id: string) => call(shop.cancelOrder, { params: { id } });
