/**
 * Variants made to be looked at: `read` gets their bytes; any other (the original, a master, an
 * untyped upload) needs `download` (docs/decisions/021-user-bytes.md). No imports: the front end's
 * viewer uses it to offer only what the caller may get.
 */
export const viewableVariantTypes: readonly string[] = ["proxy_highres", "proxy_lowres", "watermarked"];

/** What a viewer shows of a version: proxies first (lighter to load), then the master, the initial upload, the rest. */
const viewOrder = ["proxy_highres", "proxy_lowres", "master", "initial", "untyped", "watermarked"];
/**
 * A PDF's proxy is its pages as pictures (docs/decisions/073-pdf-pages-as-pictures.md): it stands in for the original
 * only for whoever cannot get that, since the original keeps its text to select and search.
 */
const documentOrder = ["master", "initial", "untyped", "proxy_highres", "proxy_lowres", "watermarked"];

/** The order a version's variants are shown in, given the (type, MIME type) of each. */
export function showOrder(variants: readonly { type: string; mime: string }[]): readonly string[] {
  const originalPdf = variants.some((v) => v.mime === "application/pdf" && !viewableVariantTypes.includes(v.type));
  return originalPdf ? documentOrder : viewOrder;
}

/** The variant a viewer shows of a version's variants (the asset info screen's technical fields are this one's). */
export function viewVariant<V extends { variant_type: string; mime_type: string }>(variants: readonly V[]): V | null {
  const order = showOrder(variants.map((v) => ({ type: v.variant_type, mime: v.mime_type })));
  return [...variants].sort((a, b) => order.indexOf(a.variant_type) - order.indexOf(b.variant_type))[0] ?? null;
}
