import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { strToU8, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { byTemplate, type Client, makeTextPdf, mediaClient } from "./media";

/**
 * A document's text found by search (docs/decisions/045-search.md): the upload starts the "Текст документа"
 * task, the real transcoder extracts the text (PDF through pdf.js, DOCX and ODT by their XML, plain text), and
 * the next search finds the asset by a word of it, in another form, with the word marked in the snippet.
 */
const dir = mkdtempSync(path.join(tmpdir(), "mam-text-"));
let client: Client;

beforeAll(async () => {
  ({ client } = await mediaClient());
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const ODT = "application/vnd.oasis.opendocument.text";

/** A word-processing file as the office suites write it: a zip whose XML holds the paragraphs. */
function docx(paragraphs: string[]) {
  const body = paragraphs.map((p) => `<w:p><w:r><w:t>${p}</w:t></w:r></w:p>`).join("");
  return zipSync({
    "[Content_Types].xml": strToU8('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    "word/document.xml": strToU8(
      `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
    ),
  });
}

function odt(paragraphs: string[]) {
  const body = paragraphs.map((p) => `<text:p>${p}</text:p>`).join("");
  return zipSync({
    mimetype: strToU8(ODT),
    "content.xml": strToU8(
      `<?xml version="1.0"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text>${body}</office:text></office:body></office:document-content>`,
    ),
  });
}

async function uploadText(name: string, bytes: Uint8Array | Buffer, mime: string, tasks: number) {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  const { assetId } = await client.upload(file, mime);
  const task = byTemplate(await client.waitTasks(assetId, tasks))["Текст документа"];
  expect(task?.status, task?.error).toBe("done");
  return assetId;
}

const search = async (q: string) =>
  (await client.call("/api/search/query", { json: { q } })) as { total: number; items: { el_id: string; snippet: string }[] };

describe("document text", () => {
  it("is extracted from DOCX, ODT, plain text and PDF, and found by search", async () => {
    const token = `z${Date.now().toString().slice(-6)}`;
    const cases = [
      {
        name: "Протокол.docx",
        bytes: docx(["Протокол заседания", `Обсуждали маяки и ${token}docx`]),
        mime: DOCX,
        tasks: 1,
        q: `маяк ${token}docx`,
        word: "маяки",
      },
      {
        name: "Заметки.odt",
        bytes: odt(["Заметки &amp; планы", `Поездка к вулканам ${token}odt`]),
        mime: ODT,
        tasks: 1,
        q: `вулкан ${token}odt`,
        word: "вулканам",
      },
      {
        name: "readme.txt",
        bytes: Buffer.from(`Список покупок: яблоки, груши ${token}txt`),
        mime: "text/plain",
        tasks: 1,
        q: `груша ${token}txt`,
        word: "груши",
      },
      // A PDF also gets its tech fields, its preview and its proxy of pictures: four tasks.
      {
        name: "Report.pdf",
        bytes: makeTextPdf(["Quarterly lighthouse report", `Keepers ${token}pdf`]),
        mime: "application/pdf",
        tasks: 4,
        q: `lighthouses ${token}pdf`,
        word: "lighthouse",
      },
    ];
    for (const c of cases) {
      const assetId = await uploadText(c.name, c.bytes, c.mime, c.tasks);
      const found = await search(c.q);
      expect(
        found.items.map((i) => i.el_id),
        c.name,
      ).toEqual([assetId]);
      expect(found.items[0].snippet, c.name).toContain(`<mark>${c.word}</mark>`);
    }
  });
});
