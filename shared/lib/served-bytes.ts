/**
 * How stored user bytes are answered (docs/decisions/021-user-bytes.md). Every route that streams a
 * file, a variant or a preview takes its Content-Type, Content-Disposition and security headers from
 * here, so a user's upload never runs as the application: the answer is sandboxed (no script, no
 * same-origin access even if a browser renders it), never sniffed, and rendered in place only for a
 * short list of types browsers show without running anything; everything else is a download of
 * opaque bytes.
 */

import { bareType } from "./mime";

/** A document with these flags cannot run script, submit forms or reach the app's origin. */
const basePolicy = "sandbox; default-src 'none'";

/** Types shown in place (inline); anything else is an attachment. SVG is an image that runs script. */
function inlineType(mime: string): string | null {
  if (!/^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(mime)) return null;
  const [top, sub] = mime.split("/");
  if (top === "image") return sub.includes("svg") || sub.includes("xml") ? null : mime;
  if (top === "video" || top === "audio" || mime === "application/pdf") return mime;
  if (mime === "text/plain") return "text/plain; charset=utf-8";
  return null;
}

export interface ServedAs {
  contentType: string;
  disposition: "inline" | "attachment";
  inline: boolean;
}

/**
 * What a stored type is served as. `wanted` is what the route would like: a download route asks for
 * an attachment of a safe type and keeps its real type; a play or preview route asks for inline and
 * gets it only for the allowlist. An unsafe type is always an attachment of application/octet-stream.
 */
export function servedAs(mime: string | null | undefined, wanted: "inline" | "attachment"): ServedAs {
  const safe = inlineType(bareType(mime));
  if (!safe) return { contentType: "application/octet-stream", disposition: "attachment", inline: false };
  return { contentType: safe, disposition: wanted, inline: wanted === "inline" };
}

/** The sandbox policy, plus what a media document needs to show itself when opened directly. */
export function bytesPolicy(contentType: string) {
  const top = contentType.split("/")[0];
  if (top === "image") return `${basePolicy}; img-src 'self'`;
  if (top === "video" || top === "audio") return `${basePolicy}; media-src 'self'`;
  return basePolicy;
}

/** RFC 6266: an ASCII fallback plus filename* in UTF-8, so Cyrillic names survive every browser. */
export function contentDisposition(kind: "attachment" | "inline", name: string) {
  const ascii =
    name
      .normalize("NFKD")
      .replace(/[^\x20-\x7e]/g, "_")
      .replace(/["\\]/g, "_") || "file";
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The headers every answer carrying user bytes has (also its 304 and HEAD answers). */
export function userBytesHeaders(mime: string | null | undefined, fileName: string, wanted: "inline" | "attachment") {
  const served = servedAs(mime, wanted);
  return new Headers({
    "Content-Type": served.contentType,
    "Content-Disposition": contentDisposition(served.disposition, fileName),
    "Content-Security-Policy": bytesPolicy(served.contentType),
    "X-Content-Type-Options": "nosniff",
  });
}

/** Stored preview images must be raster: an SVG "preview" would be a script on our origin. */
export const rasterPreviewTypes = ["image/jpeg", "image/png", "image/webp", "image/gif", "image/avif"] as const;
export const isRasterPreview = (mime: string) => (rasterPreviewTypes as readonly string[]).includes(bareType(mime));
