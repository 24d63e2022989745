/**
 * Variants made to be looked at: `read` gets their bytes; any other (the original, a master, an
 * untyped upload) needs `download` (docs/decisions/021-user-bytes.md). No imports: the front end's
 * viewer uses it to offer only what the caller may get.
 */
export const viewableVariantTypes: readonly string[] = ["proxy_highres", "proxy_lowres", "watermarked"];
