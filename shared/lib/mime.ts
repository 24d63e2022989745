/**
 * Mime types by what the product does with them; shared by the API and the screens (no server imports), so both
 * decide the same way.
 */

/** The type without parameters, lower case ("Text/HTML; charset=x" → "text/html"). */
export const bareType = (mime: string | null | undefined) => (mime ?? "").split(";")[0].trim().toLowerCase();

/** The OLE compound-file type (old .doc/.xls/.ppt, as `file` names it), which spec 9 counts as a document. */
export const compoundFileType = "application/x-ole-storage";
/** Other names the same container goes by. */
const compoundFileAliases = ["application/x-cfb", "application/cdfv2", "application/vnd.ms-office"];

/**
 * A document the office editor opens (spec 9): the compound-file type, or any application type whose name
 * contains "document" (DOCX's `application/vnd.openxmlformats-officedocument.wordprocessingml.document`,
 * ODT's `application/vnd.oasis.opendocument.text`, …).
 */
export function isDocumentMime(mime: string | null | undefined): boolean {
  const type = bareType(mime);
  if (type === compoundFileType || compoundFileAliases.includes(type)) return true;
  return type.startsWith("application/") && type.includes("document");
}
