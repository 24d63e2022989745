import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ffmpegPath } from "../../transcoder/tools.mjs";
import { cutPoints, endpointOf, silencesOf, transcribeOperation } from "../../transcoder/ops/transcribe.mjs";
import { recognizeWithBinding } from "../../functions/transcripts/workers-ai";

/**
 * The transcoder's speech recognition (transcoder/ops/transcribe.mjs) with real ffmpeg on a generated clip,
 * against a stand-in OpenAI-compatible /v1/audio/transcriptions endpoint on 127.0.0.1 answering in the real
 * verbose_json shape: the audio is cut at the silence, each piece goes as 16 kHz mono WAV, and the pieces'
 * segments and words come back on the clip's time line.
 */
const dir = mkdtempSync(path.join(tmpdir(), "mam-asr-"));
interface Received {
  path: string;
  auth: string | undefined;
  taskToken: string | undefined;
  fields: Record<string, string[]>;
  seconds: number;
  rate: number;
  channels: number;
}
const received: Received[] = [];
let server: Server;
let url = "";

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const form = await new Response(Buffer.concat(chunks), { headers: { "Content-Type": req.headers["content-type"] ?? "" } }).formData();
    const fields: Record<string, string[]> = {};
    for (const [k, v] of form.entries()) if (typeof v === "string") (fields[k] ??= []).push(v);
    const wav = Buffer.from(await (form.get("file") as Blob).arrayBuffer());
    const rate = wav.readUInt32LE(24);
    const channels = wav.readUInt16LE(22);
    const seconds = wav.readUInt32LE(40) / (rate * 2 * channels);
    received.push({
      path: req.url ?? "",
      auth: req.headers.authorization,
      taskToken: req.headers["x-task-token"] as string | undefined,
      fields,
      seconds,
      rate,
      channels,
    });
    const n = received.length;
    if (req.url?.startsWith("/api/task-cb/")) {
      // The Worker's route: its answer is what recognizeWithBinding makes of Workers AI's whisper-large-v3-turbo.
      const ai = {
        run: async () => ({
          text: `Кусок ${n}.`,
          word_count: 2,
          transcription_info: { language: "ru", language_probability: 0.98, duration: seconds, duration_after_vad: seconds },
          segments: [
            {
              start: 0.2,
              end: 1.4,
              text: `Кусок ${n}.`,
              temperature: 0,
              avg_logprob: -0.1,
              compression_ratio: 0.7,
              no_speech_prob: 0.02,
              words: [
                { word: "Кусок", start: 0.2, end: 0.6 },
                { word: `${n}.`, start: 0.7, end: 1.4 },
              ],
            },
          ],
          vtt: "WEBVTT\n",
        }),
      };
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify(await recognizeWithBinding(ai, new Uint8Array(wav), fields.language?.[0])));
      return;
    }
    // The shape OpenAI's whisper-1 answers with for verbose_json and both timestamp granularities.
    res.setHeader("Content-Type", "application/json");
    res.end(
      JSON.stringify({
        task: "transcribe",
        language: "russian",
        duration: seconds,
        text: ` Кусок ${n}.`,
        segments: [
          {
            id: 0,
            seek: 0,
            start: 0.1,
            end: 1.5,
            text: ` Кусок ${n}.`,
            tokens: [50364, 1000],
            temperature: 0,
            avg_logprob: -0.2,
            compression_ratio: 0.8,
            no_speech_prob: 0.01,
          },
        ],
        words: [
          { word: "Кусок", start: 0.1, end: 0.7 },
          { word: `${n}.`, start: 0.8, end: 1.5 },
        ],
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("cutting at silences", () => {
  it("reads silencedetect's lines and cuts in the last silence before the limit", () => {
    const silences = silencesOf([
      "[silencedetect @ 0x1] silence_start: 2.01",
      "[silencedetect @ 0x1] silence_end: 3.0 | silence_duration: 0.99",
      "[silencedetect @ 0x1] silence_start: 7",
      "[silencedetect @ 0x1] silence_end: 8 | silence_duration: 1",
    ]);
    expect(silences).toEqual([
      [2.01, 3],
      [7, 8],
    ]);
    expect(cutPoints(silences, 10, 4)).toEqual([2.505, 6.505]);
    expect(cutPoints(silences, 10, 20)).toEqual([]);
    expect(cutPoints([], 10, 4)).toEqual([4, 8]);
  });

  it("finds the endpoint under a base URL, its /v1 or the full path", () => {
    expect(endpointOf("http://h:1")).toBe("http://h:1/v1/audio/transcriptions");
    expect(endpointOf("http://h:1/v1/")).toBe("http://h:1/v1/audio/transcriptions");
    expect(endpointOf("http://h:1/v1/audio/transcriptions")).toBe("http://h:1/v1/audio/transcriptions");
  });
});

describe("recognition", () => {
  it("sends 16 kHz mono pieces cut at the silence and puts the segments on the clip's time line", async () => {
    const src = path.join(dir, "clip.mp4");
    // 5 s of video with a tone, silent from 2 s to 3 s.
    execFileSync(ffmpegPath!, [
      "-hide_banner",
      "-loglevel",
      "error",
      "-f",
      "lavfi",
      "-i",
      "color=c=black:s=160x120:d=5",
      "-f",
      "lavfi",
      "-i",
      "aevalsrc='if(between(t,2,3),0,0.5*sin(440*2*PI*t))':s=44100:d=5",
      "-shortest",
      "-c:v",
      "libx264",
      "-c:a",
      "aac",
      "-ac",
      "2",
      "-y",
      src,
    ]);
    const log: string[] = [];
    const out = await transcribeOperation(
      { source: { mime: "video/mp4" }, setup: { max_piece_seconds: 3.5 } },
      { src, dir, signal: new AbortController().signal, log: (l: string) => log.push(l), progress: () => {} },
      { url, model: "whisper-large-v3-turbo", key: "sk-test" },
    );
    expect(received).toHaveLength(2);
    for (const r of received) {
      expect(r.path).toBe("/v1/audio/transcriptions");
      expect(r.auth).toBe("Bearer sk-test");
      expect(r.fields.model).toEqual(["whisper-large-v3-turbo"]);
      expect(r.fields.response_format).toEqual(["verbose_json"]);
      expect(r.fields["timestamp_granularities[]"]).toEqual(["segment", "word"]);
      expect([r.rate, r.channels]).toEqual([16000, 1]);
    }
    // The cut lies inside the silence (2 s to 3 s), so the first piece is about 2.5 s and both add up to the clip.
    const cut = received[0]!.seconds;
    expect(cut).toBeGreaterThan(2.1);
    expect(cut).toBeLessThan(2.9);
    expect(cut + received[1]!.seconds).toBeCloseTo(5, 1);
    expect(out.transcript.language).toBe("ru");
    expect(out.transcript.segments).toEqual([
      {
        start: 0.1,
        end: 1.5,
        text: "Кусок 1.",
        words: [
          { start: 0.1, end: 0.7, word: "Кусок" },
          { start: 0.8, end: 1.5, word: "1." },
        ],
      },
      {
        start: Math.round((cut + 0.1) * 1000) / 1000,
        end: Math.round((cut + 1.5) * 1000) / 1000,
        text: "Кусок 2.",
        words: [
          { start: Math.round((cut + 0.1) * 1000) / 1000, end: Math.round((cut + 0.7) * 1000) / 1000, word: "Кусок" },
          { start: Math.round((cut + 0.8) * 1000) / 1000, end: Math.round((cut + 1.5) * 1000) / 1000, word: "2." },
        ],
      },
    ]);
  });

  it("without an endpoint of its own, sends the pieces to the recogniser the job names, with the task's token", async () => {
    const src = path.join(dir, "tone.wav");
    execFileSync(ffmpegPath!, ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "sine=f=440:d=2", "-y", src]);
    const before = received.length;
    const job = {
      source: { mime: "audio/wav" },
      setup: {
        language: "ru",
        recognizer: { url: `${url}/api/task-cb/j1/audio/transcriptions?run=2`, model: "@cf/openai/whisper-large-v3-turbo" },
      },
      callback: { url: `${url}/api/task-cb/j1`, token: "task-token" },
    };
    const ctx = { src, dir, signal: new AbortController().signal, log: () => {}, progress: () => {} };
    const out = await transcribeOperation(job, ctx);
    const got = received.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({
      path: "/api/task-cb/j1/audio/transcriptions?run=2",
      auth: undefined,
      taskToken: "task-token",
      rate: 16000,
    });
    expect(got[0]!.fields.language).toEqual(["ru"]);
    expect(out.transcript).toEqual({
      language: "ru",
      segments: [
        {
          start: 0.2,
          end: 1.4,
          text: `Кусок ${before + 1}.`,
          words: [
            { start: 0.2, end: 0.6, word: "Кусок" },
            { start: 0.7, end: 1.4, word: `${before + 1}.` },
          ],
        },
      ],
    });
  });

  it("says plainly when no recogniser is configured", async () => {
    await expect(
      transcribeOperation(
        { source: { mime: "audio/wav" }, setup: {} },
        { src: "", dir, signal: new AbortController().signal, log: () => {}, progress: () => {} },
        null,
      ),
    ).rejects.toThrow("Распознавание речи не настроено");
  });
});
