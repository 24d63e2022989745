import type { z } from "@hono/zod-openapi";
import * as assets from "../../../shared/assets/contract";
import type { assetInfo as assetInfoOut, playLink, variant } from "../../../shared/assets/schemas";
import { viewableVariantTypes, viewVariant } from "../../../shared/assets/variant-rights";
import { servedAs } from "../../../shared/lib/served-bytes";
import { call } from "../../lib/api";
import { previewLinks } from "../mam/mam-api";
import { kindOf } from "../mam/Thumb";

/** Calls of the file viewer and the asset info screen; the shapes are the API's own schemas. */

export type Variant = z.infer<typeof variant>;
export type PlayLink = z.infer<typeof playLink>;
export type AssetInfoData = z.infer<typeof assetInfoOut>;

/** The asset info screen's one call: everything it shows, with the caller's permissions as the server decides them. */
export const assetInfo = (id: string, signal?: AbortSignal) => call(assets.assetInfo, { params: { id }, signal });
/** The latest version of an asset with its variants. */
export const latestVariants = async (id: string, signal?: AbortSignal) =>
  (await call(assets.versionsByIds, { body: { ids: [id] }, signal }))[0]?.variants ?? [];
export const playVariant = (variantId: string) => call(assets.playVariant, { params: { id: variantId } });
export const previewOf = async (assetId: string) => (await previewLinks([assetId]))[0]?.preview ?? null;

/** The variants whose bytes the caller may get: all with `download`, else proxies and watermarked copies. */
export const gettableVariants = (variants: Variant[], access: string[]) =>
  access.includes("download") ? variants : variants.filter((v) => viewableVariantTypes.includes(v.variant_type));

/** An image the server sends as plain bytes (SVG: docs/decisions/021-user-bytes.md) cannot be shown in place. */
const inPlace = (v: Variant) => !v.mime_type.startsWith("image/") || servedAs(v.mime_type, "inline").inline;

/** Text files are shown up to this many bytes (a Range request): enough to read, never a huge download. */
const TEXT_LIMIT = 1 << 20;

export interface Viewing {
  /** The variants the caller may get. */
  variants: Variant[];
  shown: Variant | null;
  link: string | null;
  /** The start of a text file, read with the screen's data rather than after it shows. */
  text: string | null;
  /** Without a variant to show in place, the preview image if there is one. */
  preview: string | null;
  /** Why nothing is shown: no content, no right to the original (and no proxy), or a type not shown in place. */
  blank: "empty" | "needsDownload" | "noPreview" | null;
}

/** The first megabyte of a text variant by its play link; null when it cannot be read (the viewer says no preview). */
async function textOf(link: string, signal?: AbortSignal): Promise<string | null> {
  try {
    const response = await fetch(link, { headers: { Range: `bytes=0-${TEXT_LIMIT - 1}` }, signal });
    return response.ok ? await response.text() : null;
  } catch (error) {
    if (signal?.aborted) throw error;
    console.error(error);
    return null;
  }
}

/** The type a variant is shown as: its own, else the asset's. */
export const shownMime = (v: Variant, assetMime: string) => v.mime_type || assetMime;

/** What the viewer shows of a version's variants (`all`) to a caller with `access` on an asset of type `mime`. */
export async function chooseView(
  asset: { asset_id: string; mimetype: string; asset_access: string[] },
  all: Variant[],
  signal?: AbortSignal,
): Promise<Viewing> {
  const variants = gettableVariants(all, asset.asset_access);
  const best = viewVariant(variants);
  const shown = best && inPlace(best) ? best : null;
  const link = shown ? (await playVariant(shown.variant_id)).link : null;
  const text = shown && link && kindOf("asset", shownMime(shown, asset.mimetype)) === "text" ? await textOf(link, signal) : null;
  const preview = !shown && all.length ? await previewOf(asset.asset_id) : null;
  const blank = shown || preview ? null : !all.length ? "empty" : !variants.length ? "needsDownload" : "noPreview";
  return { variants, shown, link, text, preview, blank };
}
