import type { z } from "@hono/zod-openapi";
import type { assetGroups, playLink, previewLinks, techFields as techFieldsOut, variant, version } from "../../../functions/assets/schemas";
import { viewableVariantTypes } from "../../../functions/assets/variant-rights";
import { servedAs } from "../../../functions/lib/served-bytes";
import type { appliedRule, entityUserAccessOut } from "../../../functions/users/schemas";
import { api } from "../../lib/api";

/** Calls of the file viewer and the asset info screen; the shapes are the API's own schemas. */

export type Version = z.infer<typeof version>;
export type Variant = z.infer<typeof variant>;
export type PlayLink = z.infer<typeof playLink>;
export type AppliedRule = z.infer<typeof appliedRule>;

export const listVersions = (id: string) => api<Version[]>(`/asset/versions/${id}`);
export const listVariants = (id: string, version: number) => api<Variant[]>(`/asset/variants/${id}/${version}`);
export const playVariant = (variantId: string) => api<PlayLink>(`/asset/content/play-variant/${variantId}`, { method: "POST" });
export const previewOf = async (assetId: string) =>
  (await api<z.infer<typeof previewLinks>>("/asset/content/preview-by-list", { method: "POST", body: { ids: [assetId] } }))[0]?.preview ??
  null;
export const memberOf = (id: string) => api<z.infer<typeof assetGroups>>(`/asset/member-of/${id}`);
export const techFields = (id: string, variantId: string) => api<z.infer<typeof techFieldsOut>>(`/asset/tech-fields/${id}/${variantId}`);
export const entityUserAccess = (id: string) => api<z.infer<typeof entityUserAccessOut>[number]>(`/auth/entity-user-access/${id}`);

/** What the viewer shows: proxies first (lighter to load), then the master, the initial upload, the rest. */
const VIEW_ORDER = ["proxy_highres", "proxy_lowres", "master", "initial", "untyped", "watermarked"];

export function viewVariant(variants: Variant[]): Variant | null {
  return [...variants].sort((a, b) => VIEW_ORDER.indexOf(a.variant_type) - VIEW_ORDER.indexOf(b.variant_type))[0] ?? null;
}

/** The variants whose bytes the caller may get: all with `download`, else proxies and watermarked copies. */
export const gettableVariants = (variants: Variant[], access: string[]) =>
  access.includes("download") ? variants : variants.filter((v) => viewableVariantTypes.includes(v.variant_type));

/** An image the server sends as plain bytes (SVG: docs/decisions/021-user-bytes.md) cannot be shown in place. */
const inPlace = (v: Variant) => !v.mime_type.startsWith("image/") || servedAs(v.mime_type, "inline").inline;

export interface Viewing {
  /** The variants the caller may get. */
  variants: Variant[];
  shown: Variant | null;
  link: string | null;
  /** Without a variant to show in place, the preview image if there is one. */
  preview: string | null;
  /** Why nothing is shown: no content, no right to the original (and no proxy), or a type not shown in place. */
  blank: "empty" | "needsDownload" | "noPreview" | null;
}

/** What the viewer shows of a version's variants (`all`) to a caller with `access` on the asset. */
export async function chooseView(assetId: string, all: Variant[], access: string[]): Promise<Viewing> {
  const variants = gettableVariants(all, access);
  const best = viewVariant(variants);
  const shown = best && inPlace(best) ? best : null;
  const link = shown ? (await playVariant(shown.variant_id)).link : null;
  const preview = !shown && all.length ? await previewOf(assetId) : null;
  const blank = shown || preview ? null : !all.length ? "empty" : !variants.length ? "needsDownload" : "noPreview";
  return { variants, shown, link, preview, blank };
}

/** Versions are one row per variant: the distinct version numbers, newest first. */
export const versionNumbers = (rows: Version[]) => [...new Set(rows.map((r) => r.version))].sort((a, b) => b - a);
