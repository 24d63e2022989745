import { createMessageBatch, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Env } from "../../functions/lib/env";
import { handleQueue } from "../../queues/index";
import type { JobMessage } from "../../queues/messages";
import { admin, call, grant, mkGroup, mkPerson, uniq, VIRTUAL_ROOT } from "./fixtures";
import { randomBytes, uploadFile } from "./uploads.helpers";

/**
 * A subtitle file uploaded with a video becomes the video's transcript (docs/decisions/059-transcripts.md): as a
 * file of the same base name in the video's group, or as a variant of the video. The upload-finished consumer
 * does it, with the uploader's rights.
 */

const srt = `1
00:00:01,000 --> 00:00:02,500
Добрый вечер.

2
00:00:03,000 --> 00:00:04,000
Начинаем.
`;
const encode = (text: string) => new TextEncoder().encode(text);

/** The consumer as the queue runs it; tasks the upload starts go nowhere (no transcoder here). */
const noJobs = { ...env, JOBS: { send: async () => {}, sendBatch: async () => {} } } as unknown as Env;
async function finished(
  done: { asset_id: string; version: number; variant_id: string; variant_type: string },
  userId: string,
  mime: string,
) {
  const body: JobMessage = {
    type: "upload-finished",
    assetId: done.asset_id,
    version: done.version,
    variantId: done.variant_id,
    variantType: done.variant_type as "initial",
    size: 0,
    mime,
    sha256: null,
    userId,
  };
  await handleQueue(
    createMessageBatch<JobMessage>("mam-jobs", [{ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body }]),
    noJobs,
  );
}

async function mkAsset(bearer: string, group: string, name: string, mime: string, bytes: Uint8Array) {
  const r = await call("/api/asset/create", { method: "POST", json: { asset_name: name, asset_mime: mime, in_group: group }, bearer });
  expect(r.status, r.text).toBe(200);
  const { done } = await uploadFile(bearer, r.body.asset_id, bytes, { mime, name });
  return { id: r.body.asset_id as string, done };
}

const whoami = async (bearer: string) => (await call("/api/auth/whoami", { bearer })).body.id as string;
const transcriptOf = (id: string, bearer: string) => call(`/api/transcripts/${id}`, { bearer });

describe("subtitles uploaded with a video", () => {
  it("«Имя.ru.srt» next to «Имя.mp4» becomes the video's transcript, in Russian, from import", async () => {
    const bearer = await admin();
    const group = await mkGroup(VIRTUAL_ROOT);
    const base = uniq("Интервью");
    const video = await mkAsset(bearer, group, `${base}.mp4`, "video/mp4", randomBytes(64));
    const other = await mkAsset(bearer, group, `${uniq("Другое")}.mp4`, "video/mp4", randomBytes(64));
    const subs = await mkAsset(bearer, group, `${base}.ru.srt`, "application/x-subrip", encode(srt));
    await finished(subs.done, await whoami(bearer), "application/x-subrip");
    const got = await transcriptOf(video.id, bearer);
    expect(got.status, got.text).toBe(200);
    expect(got.body).toMatchObject({
      version: 1,
      language: "ru",
      source: "import",
      segments: [
        { start: 1, end: 2.5, text: "Добрый вечер." },
        { start: 3, end: 4, text: "Начинаем." },
      ],
    });
    expect((await transcriptOf(other.id, bearer)).status).toBe(404);
  });

  it("a .vtt variant of a video becomes that version's transcript", async () => {
    const bearer = await admin();
    const group = await mkGroup(VIRTUAL_ROOT);
    const video = await mkAsset(bearer, group, `${uniq("Лекция")}.mp4`, "video/mp4", randomBytes(64));
    const vtt = "WEBVTT\n\n00:00:00.500 --> 00:00:01.500\nПервая реплика.\n";
    const { done } = await uploadFile(bearer, video.id, encode(vtt), {
      mime: "text/vtt",
      name: "лекция-субтитры.vtt",
      version: 1,
      variant_type: "untyped",
    });
    await finished(done, await whoami(bearer), "text/vtt");
    const got = await transcriptOf(video.id, bearer);
    expect(got.status, got.text).toBe(200);
    expect(got.body).toMatchObject({ version: 1, source: "import", segments: [{ start: 0.5, end: 1.5, text: "Первая реплика." }] });
  });

  it("imports nothing for an uploader who may not change the video, nor from a file that does not parse", async () => {
    const bearer = await admin();
    const group = await mkGroup(VIRTUAL_ROOT);
    const base = uniq("Репортаж");
    const video = await mkAsset(bearer, group, `${base}.mp4`, "video/mp4", randomBytes(64));
    // May add files to the group and read the video, not change it.
    const uploader = await mkPerson();
    await grant(uploader.id, group, ["read", "create"]);
    const subs = await mkAsset(uploader.bearer, group, `${base}.srt`, "application/x-subrip", encode(srt));
    await finished(subs.done, uploader.id, "application/x-subrip");
    expect((await transcriptOf(video.id, bearer)).status).toBe(404);
    // The admin's malformed file stays a file.
    const broken = await mkAsset(bearer, group, `${base}.vtt`, "text/vtt", encode("не субтитры\n"));
    await finished(broken.done, await whoami(bearer), "text/vtt");
    expect((await transcriptOf(video.id, bearer)).status).toBe(404);
  });
});
