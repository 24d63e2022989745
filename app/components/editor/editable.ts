import { bareType, isDocumentMime } from "../../../shared/lib/mime";
import { textExtensions } from "../../../shared/wopi/schemas";

/**
 * What the document editor (/editor/{id}) opens, decided the same way by every "Редактировать" button: office
 * documents (spec 9: the compound-file type or an application type containing "document") for anyone who may
 * read them, the text types the built-in editor knows for those who may change them.
 */

const extensionOf = (name: string) => {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
};

export type TextKind = (typeof textExtensions)[number];

/** The built-in editor's kind for a file, by extension (then text/* as plain text); null for anything else. */
export function textKind(name: string, mime: string | null | undefined): TextKind | null {
  const ext = extensionOf(name);
  if ((textExtensions as readonly string[]).includes(ext)) return ext as TextKind;
  const type = bareType(mime);
  if (type === "application/json") return "json";
  if (type === "application/xml" || type === "text/xml") return "xml";
  if (type === "text/plain" || type === "text/markdown" || type === "text/csv" || type === "text/vtt") return "txt";
  return null;
}

export function offersEdit(asset: { name: string; mimetype: string | null; asset_access: string[] }): boolean {
  if (isDocumentMime(asset.mimetype)) return true;
  return textKind(asset.name, asset.mimetype) !== null && asset.asset_access.includes("update");
}

/** The editor's address, remembering the page the user came from (for its back link). */
export const editorPath = (assetId: string, from: string) => `/editor/${assetId}?from=${encodeURIComponent(from)}`;
