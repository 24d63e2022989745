import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import { benchAdmin } from "../bench/server.mjs";
import { ffmpegPath, ffprobePath } from "../../transcoder/tools.mjs";
import { fetchFresh } from "../shared/fetch-fresh";

/** Generated media (ffmpeg testsrc/sine, sharp) and a Node client of the upload protocol, for the pipeline test and the bench. */

// The transcoder's own lookup: PATH first, then the @ffmpeg-installer / @ffprobe-installer binaries.
export const ffmpeg: string = ffmpegPath;
export const ffprobe: string = ffprobePath;

export function makeClip(file: string, seconds: number, width = 1280, height = 720, rate = 25) {
  execFileSync(ffmpeg, [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `testsrc=size=${width}x${height}:rate=${rate}`,
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=440:sample_rate=48000",
    "-t",
    String(seconds),
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-pix_fmt",
    "yuv420p",
    "-c:a",
    "aac",
    "-b:a",
    "128k",
    "-shortest",
    file,
  ]);
  return file;
}

export function probeFile(file: string) {
  return JSON.parse(execFileSync(ffprobe, ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", file]).toString());
}

/** True when the MP4's moov box comes before mdat (fast start: playable while downloading). */
export function fastStart(file: string) {
  const head = readFileSync(file)
    .subarray(0, 1 << 20)
    .toString("latin1");
  const moov = head.indexOf("moov");
  const mdat = head.indexOf("mdat");
  return moov > 0 && (mdat < 0 || moov < mdat);
}

export class Client {
  bearer = "";
  constructor(readonly url: string) {}

  async call<T = any>(p: string, init: { method?: string; json?: unknown } = {}): Promise<T> {
    const res = await fetchFresh(this.url + p, {
      method: init.method ?? (init.json ? "POST" : "GET"),
      headers: { "Content-Type": "application/json", ...(this.bearer ? { Authorization: `Bearer ${this.bearer}` } : {}) },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${init.method ?? "GET"} ${p}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  async login(user: string, passwd: string) {
    this.bearer = (await this.call("/api/auth/login", { json: { user, passwd } })).bearer;
  }

  async bytes(p: string) {
    const res = await fetchFresh(this.url + p, { headers: { Authorization: `Bearer ${this.bearer}` } });
    if (!res.ok) throw new Error(`GET ${p}: ${res.status} ${await res.text()}`);
    return Buffer.from(await res.arrayBuffer());
  }

  /** Creates an asset and uploads `file` into it (start, targets, PUT parts, complete); returns ids. */
  async upload(file: string, mime: string, inGroup?: string) {
    const data = readFileSync(file);
    const name = path.basename(file);
    const { asset_id } = await this.call("/api/asset/create", { json: { asset_name: name, asset_mime: mime, in_group: inGroup } });
    const up = await this.call("/api/ul/start", { json: { asset_id, size: data.length, name, mime } });
    const parts = Array.from({ length: up.part_count }, (_, i) => i + 1);
    const targets = await this.call(`/api/ul/${up.upload_id}/targets`, { json: { parts } });
    for (const t of targets) {
      const chunk = data.subarray((t.part - 1) * up.part_size, (t.part - 1) * up.part_size + t.size);
      const res = await fetch(t.url, { method: "PUT", body: chunk, headers: { "Content-Length": String(chunk.length) } });
      if (!res.ok) throw new Error(`part ${t.part}: ${res.status}`);
      await this.call(`/api/ul/${up.upload_id}/parts/${t.part}`, { json: { etag: res.headers.get("ETag") } });
    }
    const done = await this.call(`/api/ul/${up.upload_id}/complete`, { method: "POST" });
    return { assetId: asset_id as string, variantId: done.variant_id as string, completedAt: performance.now() };
  }

  /** Polls the asset's tasks until `count` exist and all are final; returns them. */
  async waitTasks(assetId: string, count: number, timeoutMs = 120_000, onPoll?: (tasks: any[]) => void | Promise<void>) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const tasks = await this.call<any[]>(`/api/tasklist/current?entity=${assetId}&take=50`);
      await onPoll?.(tasks);
      if (tasks.length >= count && tasks.every((t) => ["done", "error", "canceled"].includes(t.status))) return tasks;
      if (Date.now() > deadline)
        throw new Error(`tasks not finished: ${JSON.stringify(tasks.map((t) => [t.template, t.status, t.progress, t.error]))}`);
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}

/** A client of the shared media server (global-setup.ts), signed in as the admin. */
export async function mediaClient() {
  const client = new Client(inject("mediaUrl"));
  await client.login(benchAdmin.user, benchAdmin.passwd);
  return { client, transcoderUrl: inject("transcoderUrl") };
}

export const byTemplate = (tasks: any[]) => Object.fromEntries(tasks.map((t) => [t.template, t]));

/** A stereo sine tone as AAC in M4A (an encoder every ffmpeg build has). */
export function makeTone(file: string, seconds: number) {
  execFileSync(ffmpeg, [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=440:sample_rate=44100",
    "-ac",
    "2",
    "-t",
    String(seconds),
    "-c:a",
    "aac",
    "-b:a",
    "128k",
    file,
  ]);
  return file;
}

/** A one-page PDF whose lines are real text (Helvetica, Latin letters), as a PDF writer makes it. */
export function makeTextPdf(lines: string[]) {
  return makeTextPages([lines]);
}

/** A PDF of US Letter pages, each with its lines of real text (Helvetica, Latin letters) from the top left. */
export function makeTextPages(pages: string[][]) {
  const first = 3 + pages.length; // the catalog, the page tree, the pages, then a contents stream per page, then the font
  const font = first + pages.length;
  const contents = pages.map((lines) => {
    const shown = lines.map((l, i) => `${i ? "0 -20 Td " : ""}(${l.replace(/[()\\]/g, "\\$&")}) Tj`).join(" ");
    const content = `BT /F1 14 Tf 50 750 Td ${shown} ET`;
    return `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
  });
  return pdfOf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${i + 3} 0 R`).join(" ")}] /Count ${pages.length} >>`,
    ...pages.map(
      (_, i) =>
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${first + i} 0 R /Resources << /Font << /F1 ${font} 0 R >> >> >>`,
    ),
    ...contents,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ]);
}

/** A minimal valid PDF written by hand: a catalog, a page tree of `pages` empty A4 pages, and a correct xref. */
export function makePdf(pages: number) {
  const kids = Array.from({ length: pages }, (_, i) => `${i + 3} 0 R`).join(" ");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    ...Array.from({ length: pages }, () => "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>"),
  ];
  return pdfOf(objects);
}

/** A PDF file of these objects (numbered from 1, the first the catalog), with its cross-reference table. */
function pdfOf(objects: string[]) {
  let body = "%PDF-1.4\n";
  const offsets = objects.map((o, i) => {
    const at = body.length;
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
    return at;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}
