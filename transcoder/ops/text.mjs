import { readFile } from "node:fs/promises";
import { strFromU8, unzipSync } from "fflate";
import { extractText, getDocumentProxy } from "unpdf";

/**
 * The text of a document, for search (operation class "text"): PDF through pdf.js (unpdf), DOCX and ODT by
 * their XML (paragraphs become lines), anything text/* as UTF-8. Cut to what the index keeps.
 */
/** As shared/lib/constants.ts MAX_DOCUMENT_TEXT: what the Worker accepts and indexes. */
export const MAX_TEXT = 300_000;

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const ODT = "application/vnd.oasis.opendocument.text";

const entities = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
/** XML to text: paragraph and line-break ends become new lines, tags go, entities are decoded. */
export function xmlText(xml, paragraphEnd) {
  return xml
    .replace(paragraphEnd, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&(amp|lt|gt|quot|apos);/g, (_, e) => entities[e])
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n) => String.fromCodePoint(Number.parseInt(n, 16)))
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function zipEntry(bytes, name) {
  const files = unzipSync(bytes, { filter: (f) => f.name === name });
  if (!files[name]) throw new Error(`в файле нет ${name}`);
  return strFromU8(files[name]);
}

export async function documentText(file, mime) {
  const m = mime.split(";")[0].trim().toLowerCase();
  const bytes = new Uint8Array(await readFile(file));
  let text;
  if (m === "application/pdf") text = (await extractText(await getDocumentProxy(bytes), { mergePages: true })).text;
  else if (m === DOCX) text = xmlText(zipEntry(bytes, "word/document.xml"), /<\/w:p>|<w:br\/>|<w:tab\/>/g);
  else if (m === ODT) text = xmlText(zipEntry(bytes, "content.xml"), /<\/text:p>|<\/text:h>|<text:line-break\/>|<text:tab\/>/g);
  else if (m.startsWith("text/")) text = new TextDecoder("utf-8").decode(bytes);
  else throw new Error(`текст не извлекается из ${m}`);
  return text.slice(0, MAX_TEXT);
}

export async function textOperation(job, ctx) {
  const text = await documentText(ctx.src, job.source.mime);
  ctx.log(`Извлечено символов: ${text.length}`);
  return { text, tech: {} };
}
