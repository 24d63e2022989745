import { viewableVariantTypes } from "../../../functions/assets/variant-rights";
import { servedAs } from "../../../functions/lib/served-bytes";
import { api } from "../../lib/api";

/** Calls of the file viewer and the asset info screen (functions/assets/schemas.ts, functions/auth). */

export interface Version {
  version: number;
  desc: string;
  ctime: number;
  user_id: string | null;
  variant_id: string | null;
  variant_name: string | null;
  variant_type: string | null;
}

export interface Variant {
  variant_id: string;
  asset_id: string;
  version: number;
  storage: string;
  name: string;
  mime_type: string;
  format: string;
  variant_type: string;
  content_size: number;
  file_name: string;
  ctime: number;
}

export interface PlayLink {
  link: string;
  expire: number;
  range: boolean;
}

export interface AppliedRule {
  rule_id: string;
  /** null: a team the caller cannot read (never named to it). */
  subj_id: string | null;
  subj_type: "user" | "group";
  acl: string[];
  subj_name: string | null;
  obj_name: string | null;
  inherited: boolean;
}

export const listVersions = (id: string) => api<Version[]>(`/asset/versions/${id}`);
export const listVariants = (id: string, version: number) => api<Variant[]>(`/asset/variants/${id}/${version}`);
export const playVariant = (variantId: string) => api<PlayLink>(`/asset/content/play-variant/${variantId}`, { method: "POST" });
export const previewOf = async (assetId: string) =>
  (await api<{ preview: string | null }[]>("/asset/content/preview-by-list", { method: "POST", body: { ids: [assetId] } }))[0]?.preview ?? null;
export const memberOf = (id: string) => api<{ group_id: string; group_name: string }[]>(`/asset/member-of/${id}`);
export const techFields = (id: string, variantId: string) => api<{ name: string; value: unknown }[]>(`/asset/tech-fields/${id}/${variantId}`);
export const entityUserAccess = (id: string) => api<{ id: string; rules: AppliedRule[] }>(`/auth/entity-user-access/${id}`);

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
