import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { tasks, users } from "../../db/schema";
import type { WorkersAiLike } from "../../functions/lib/bindings";
import { toBase64 } from "../../shared/lib/encoding";
import type { AuthUser, Env } from "../../functions/lib/env";
import { sha256Hex } from "../../functions/lib/ids";
import { jobPayload } from "../../functions/tasks/dispatch";
import { startRecognition } from "../../functions/tasks/recognize";
import { WHISPER_MODEL } from "../../functions/transcripts/workers-ai";
import { api } from "./helpers";
import { admin, call, db, mkGroup, uniq, VIRTUAL_ROOT } from "./fixtures";
import { randomBytes, uploadFile } from "./uploads.helpers";

/**
 * «Расшифровка» through the Workers AI binding (docs/decisions/059-transcripts.md) when no TRANSCRIBE_URL is set:
 * the job names the task's callback as the recogniser, and that route runs @cf/openai/whisper-large-v3-turbo with
 * its hallucination controls and answers in OpenAI's verbose_json shape. The binding is a stand-in answering in
 * Workers AI's real shape (the model cannot run here).
 */

const ORIGIN = "https://mam.example.com";
const calls: { model: string; input: Record<string, unknown> }[] = [];
const ai: WorkersAiLike = {
  async run(model, input) {
    calls.push({ model, input });
    return {
      text: "Добрый день. Начнём.",
      word_count: 3,
      transcription_info: { language: "ru", language_probability: 0.99, duration: 4.2, duration_after_vad: 3.9 },
      segments: [
        {
          start: 0.3,
          end: 1.6,
          text: "Добрый день.",
          temperature: 0,
          avg_logprob: -0.12,
          compression_ratio: 0.8,
          no_speech_prob: 0.01,
          words: [
            { word: "Добрый", start: 0.3, end: 0.8 },
            { word: "день.", start: 0.9, end: 1.6 },
          ],
        },
        {
          start: 2.1,
          end: 3.4,
          text: "Начнём.",
          temperature: 0,
          avg_logprob: -0.2,
          compression_ratio: 0.6,
          no_speech_prob: 0.02,
          words: [{ word: "Начнём.", start: 2.1, end: 3.4 }],
        },
      ],
      vtt: "WEBVTT\n\n00:00.300 --> 00:01.600\nДобрый день.\n",
    };
  },
};
const jobs: unknown[] = [];
const withAi = { ...env, AI: ai, PUBLIC_URL: ORIGIN, JOBS: { send: async (m: unknown) => void jobs.push(m) } } as unknown as Env;

async function adminAuth(): Promise<AuthUser> {
  const u = (await db().select().from(users).where(eq(users.login, "admin")).get())!;
  return { userId: u.userId, userName: u.userName, login: u.login, isAdmin: true, isRobot: false, chrootGroups: [], sessionId: "test" };
}

/** A video with a started «Расшифровка» handed over as run 1 with a known token (what the dispatcher does). */
async function startedTask(token: string) {
  const group = await mkGroup(VIRTUAL_ROOT);
  const name = `${uniq("Лекция")}.mp4`;
  const r = await call("/api/asset/create", {
    method: "POST",
    json: { asset_name: name, asset_mime: "video/mp4", in_group: group },
    bearer: await admin(),
  });
  await uploadFile(await admin(), r.body.asset_id, randomBytes(64), { mime: "video/mp4", name });
  const started = await startRecognition(db(), withAi, await adminAuth(), r.body.asset_id, { language: "ru" });
  const [task] = await db()
    .update(tasks)
    .set({ run: 1, tokenHash: await sha256Hex(token) })
    .where(eq(tasks.jobId, started.job_id))
    .returning();
  return task!;
}

const piece = (wav: Uint8Array, fields: Record<string, string> = { language: "ru" }) => {
  const form = new FormData();
  form.append("file", new Blob([wav as Uint8Array<ArrayBuffer>], { type: "audio/wav" }), "piece.wav");
  form.append("model", WHISPER_MODEL);
  form.append("response_format", "verbose_json");
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
};

describe("recognition through the Workers AI binding", () => {
  it("is offered with the binding alone, and the job names the task's callback as the recogniser", async () => {
    const t = await startedTask("tok-1");
    const job = await jobPayload(withAi, db(), t, "tok-1");
    expect(job.setup).toMatchObject({
      language: "ru",
      recognizer: { url: `${ORIGIN}/api/task-cb/${t.jobId}/audio/transcriptions?run=1`, model: WHISPER_MODEL },
    });
    // An endpoint, when set, wins: the transcoder uses its own TRANSCRIBE_URL and the job names no recogniser.
    const both = await jobPayload({ ...withAi, TRANSCRIBE_URL: "http://asr.internal/v1" } as Env, db(), t, "tok-1");
    expect(both.setup).not.toHaveProperty("recognizer");
  });

  it("recognises a piece with whisper-large-v3-turbo and its hallucination controls, answering verbose_json", async () => {
    const t = await startedTask("tok-2");
    const wav = randomBytes(3000);
    calls.length = 0;
    const res = await api(`/api/task-cb/${t.jobId}/audio/transcriptions?run=1`, {
      method: "POST",
      body: piece(wav),
      headers: { "X-Task-Token": "tok-2" },
      env: withAi,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(calls).toEqual([
      {
        model: "@cf/openai/whisper-large-v3-turbo",
        input: {
          audio: toBase64(wav),
          task: "transcribe",
          language: "ru",
          vad_filter: true,
          no_speech_threshold: 0.6,
          condition_on_previous_text: false,
        },
      },
    ]);
    expect(await res.json()).toEqual({
      task: "transcribe",
      language: "ru",
      duration: 4.2,
      text: "Добрый день. Начнём.",
      segments: [
        { id: 0, start: 0.3, end: 1.6, text: "Добрый день." },
        { id: 1, start: 2.1, end: 3.4, text: "Начнём." },
      ],
      words: [
        { word: "Добрый", start: 0.3, end: 0.8 },
        { word: "день.", start: 0.9, end: 1.6 },
        { word: "Начнём.", start: 2.1, end: 3.4 },
      ],
    });
  });

  it("refuses a wrong token or run, a missing file and a bad language; without the binding it says recognition is not set up", async () => {
    const t = await startedTask("tok-3");
    calls.length = 0;
    const post = (path: string, form: FormData, token: string, e: Env = withAi) =>
      api(path, { method: "POST", body: form, headers: { "X-Task-Token": token }, env: e });
    const path = `/api/task-cb/${t.jobId}/audio/transcriptions?run=1`;
    expect((await post(path, piece(randomBytes(100)), "wrong")).status).toBe(401);
    expect((await post(`/api/task-cb/${t.jobId}/audio/transcriptions?run=2`, piece(randomBytes(100)), "tok-3")).status).toBe(409);
    const noFile = new FormData();
    noFile.append("language", "ru");
    const missing = await post(path, noFile, "tok-3");
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { details: { field: string }[] } }).error.details[0]!.field).toBe("file");
    const badLanguage = await post(path, piece(randomBytes(100), { language: "русский" }), "tok-3");
    expect(badLanguage.status).toBe(400);
    expect(((await badLanguage.json()) as { error: { details: { field: string }[] } }).error.details[0]!.field).toBe("language");
    const without = await post(path, piece(randomBytes(100)), "tok-3", { ...withAi, AI: undefined } as Env);
    expect(without.status).toBe(503);
    expect(((await without.json()) as { error: { message: string } }).error.message).toBe("Распознавание речи не настроено");
    expect(calls).toHaveLength(0);
  });
});
