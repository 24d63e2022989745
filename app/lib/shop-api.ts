import type { z } from "zod";
import type {
  cartOut,
  checkoutOut,
  licenceBody,
  licenceOut,
  orderOut,
  productBody,
  productOut,
  productPatch,
  productsPage,
} from "../../functions/shop/schemas";
import { api } from "./api";

/** The shop's calls (/api/shop); types from the API's own schemas. */
export type Product = z.infer<typeof productOut>;
export type ProductsPage = z.infer<typeof productsPage>;
export type Cart = z.infer<typeof cartOut>;
export type Order = z.infer<typeof orderOut>;
export type Licence = z.infer<typeof licenceOut>;
export type ProductInput = z.input<typeof productBody>;

export const listProducts = (query: { q?: string; group?: string; all?: boolean; skip?: number; take?: number }, signal?: AbortSignal) =>
  api<ProductsPage>("/shop/products", { query: { ...query, all: query.all ? "true" : undefined }, signal });
export const getProduct = (id: string, signal?: AbortSignal) => api<Product>(`/shop/product/${id}`, { signal });
export const createProduct = (body: ProductInput) => api<{ product_id: string }>("/shop/product", { method: "POST", body });
export const patchProduct = (id: string, body: z.input<typeof productPatch>) =>
  api<Product>(`/shop/product/${id}`, { method: "PATCH", body });
export const deleteProduct = (id: string) => api(`/shop/product/${id}`, { method: "DELETE" });
export const publishProduct = (id: string, published: boolean) =>
  api<Product>(`/shop/product/${id}/publish`, { method: "POST", body: { published } });

export const listLicences = (signal?: AbortSignal) => api<Licence[]>("/shop/licences", { signal });
export const createLicence = (body: z.input<typeof licenceBody>) => api<Licence>("/shop/licences", { method: "POST", body });
export const patchLicence = (id: string, body: Partial<z.input<typeof licenceBody>>) =>
  api<Licence>(`/shop/licences/${id}`, { method: "PATCH", body });
export const deleteLicence = (id: string) => api(`/shop/licences/${id}`, { method: "DELETE" });

export const getCart = (signal?: AbortSignal) => api<Cart>("/shop/cart", { signal });
export const addToCart = (product_id: string, offer_id: string) =>
  api<Cart>("/shop/cart/items", { method: "POST", body: { product_id, offer_id } });
export const removeFromCart = (id: string) => api<Cart>(`/shop/cart/items/${id}`, { method: "DELETE" });

export const checkout = (body: { provider?: "manual" | "stripe"; email?: string }) =>
  api<z.infer<typeof checkoutOut>>("/shop/checkout", { method: "POST", body });
export const myOrders = (signal?: AbortSignal) => api<{ items: Order[] }>("/shop/orders", { signal });
export const allOrders = (status: string | null, signal?: AbortSignal) =>
  api<{ items: Order[] }>("/shop/orders/all", { query: { status }, signal });
export const getOrder = (id: string, signal?: AbortSignal) => api<Order>(`/shop/order/${id}`, { signal });
export const orderAction = (id: string, action: "approve" | "mark-paid" | "reject" | "refund", reason?: string) =>
  api<Order>(`/shop/order/${id}/${action}`, { method: "POST", body: action === "reject" ? { reason } : undefined });
export const cancelOrder = (id: string) => api<Order>(`/shop/order/${id}/cancel`, { method: "POST" });
