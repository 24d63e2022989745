import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeClip } from "../media/media";
import { adminOf, servers, until } from "./runtime";

/**
 * A subtitle file uploaded next to a video on `npm start` becomes the video's transcript, through the queue's
 * upload-finished consumer (docs/decisions/059-transcripts.md), and search then finds the video by a spoken word.
 */

const dir = mkdtempSync(path.join(tmpdir(), "mam-e2e-subs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
const uniq = (prefix: string) => `${prefix} ${Date.now().toString(36)}-${++n}`;

describe.each(servers())("on $store", ({ url }) => {
  it("«Имя.ru.srt» uploaded beside «Имя.mp4» is imported as its transcript", async () => {
    const admin = await adminOf(url);
    const group = (
      await admin.call("/api/group/create", { json: { parent: "ffffffff-ffff-ffff-ffff-ffffffffffff", group_name: uniq("Субтитры") } })
    ).group_id as string;
    const base = uniq("Интервью");
    const clip = makeClip(path.join(dir, `${base}.mp4`), 1, 160, 120);
    const subs = path.join(dir, `${base}.ru.srt`);
    writeFileSync(subs, "1\n00:00:00,200 --> 00:00:00,900\nГоворили о путешествиях.\n");
    const video = await admin.upload(clip, "video/mp4", group);
    await admin.upload(subs, "application/x-subrip", group);
    const transcript = await until("the transcript", async () => {
      try {
        return await admin.call(`/api/transcripts/${video.assetId}`);
      } catch {
        return null;
      }
    });
    expect(transcript).toMatchObject({
      language: "ru",
      source: "import",
      segments: [{ start: 0.2, end: 0.9, text: "Говорили о путешествиях." }],
    });
  });
});
