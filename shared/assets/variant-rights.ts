/**
 * Variants made to be looked at: `read` gets their bytes; any other (the original, a master, an
 * untyped upload) needs `download` (docs/decisions/021-user-bytes.md). No imports: the front end's
 * viewer uses it to offer only what the caller may get.
 */
export const viewableVariantTypes: readonly string[] = ["proxy_highres", "proxy_lowres", "watermarked"];

/** What a viewer shows of a version: proxies first (lighter to load), then the master, the initial upload, the rest. */
const viewOrder = ["proxy_highres", "proxy_lowres", "master", "initial", "untyped", "watermarked"];

/** The variant a viewer shows of a version's variants (the asset info screen's technical fields are this one's). */
export function viewVariant<V extends { variant_type: string }>(variants: readonly V[]): V | null {
  return [...variants].sort((a, b) => viewOrder.indexOf(a.variant_type) - viewOrder.indexOf(b.variant_type))[0] ?? null;
}
