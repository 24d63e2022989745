import { readFile, writeFile } from "node:fs/promises";
import { PDFDocument } from "pdf-lib";
import sharp from "sharp";
import { getDocumentProxy, renderPageAsImage } from "unpdf";

/**
 * PDF pages as pictures (docs/decisions/073-pdf-pages-as-pictures.md): page 1 is a PDF's preview, and the document
 * proxy is a new PDF of the pages' pictures only — what a reader without the download right, or a review link's guest,
 * is shown. It carries none of the original's text, fonts, links, forms, scripts or attachments.
 */

// pdf.js hands font data over with ArrayBuffer.prototype.transferToFixedLength, which Node has from 21 on. On Node 20
// its fonts failed and every page rendered blank; a copy does the same job for a buffer nobody uses afterwards.
if (!("transferToFixedLength" in ArrayBuffer.prototype)) {
  Object.defineProperty(ArrayBuffer.prototype, "transferToFixedLength", {
    value(length) {
      return this.slice(0, length ?? this.byteLength);
    },
    configurable: true,
    writable: true,
  });
}

const canvasImport = () => import("@napi-rs/canvas");

async function openPdf(file) {
  return getDocumentProxy(new Uint8Array(await readFile(file)));
}

/** One page (from 1) as a PNG `width` pixels wide, drawn on a transparent canvas: the callers put white behind it. */
async function pagePicture(doc, page, width) {
  return Buffer.from(await renderPageAsImage(doc, page, { canvasImport, width }));
}

/** Page 1 drawn at twice the size that fits `width` × `height`, so the preview's downsizing keeps small print legible. */
export async function firstPagePicture(file, width, height) {
  const doc = await openPdf(file);
  try {
    const page = (await doc.getPage(1)).getViewport({ scale: 1 });
    const fit = Math.min(width / page.width, height / page.height);
    return await pagePicture(doc, 1, Math.max(1, Math.round(page.width * fit * 2)));
  } finally {
    await doc.loadingTask.destroy();
  }
}

/**
 * The document proxy: at most `max_pages` pages, each a JPEG `width` pixels wide on a page of the original's size
 * in points (so a page number means the same page, and the browser's viewer shows it at the same scale).
 */
export async function documentProxy(job, ctx, out) {
  const { width = 1240, quality = 75, max_pages: maxPages = 300 } = job.setup;
  const doc = await openPdf(ctx.src);
  const proxy = await PDFDocument.create();
  let pages;
  try {
    pages = Math.min(doc.numPages, maxPages);
    if (doc.numPages > pages) ctx.log(`Страниц в документе ${doc.numPages}, в прокси первые ${pages}`);
    for (let n = 1; n <= pages; n++) {
      if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error("aborted");
      const size = (await doc.getPage(n)).getViewport({ scale: 1 });
      const jpeg = await sharp(await pagePicture(doc, n, width))
        .flatten({ background: "#ffffff" })
        .jpeg({ quality, mozjpeg: false })
        .toBuffer();
      const picture = await proxy.embedJpg(jpeg);
      proxy.addPage([size.width, size.height]).drawImage(picture, { x: 0, y: 0, width: size.width, height: size.height });
      ctx.progress((n / pages) * 99, `Страница ${n} из ${pages}`);
    }
  } finally {
    await doc.loadingTask.destroy();
  }
  await writeFile(out, await proxy.save());
  return { pages, container: "pdf" };
}
