import { readFile } from "node:fs/promises";
import path from "node:path";
import { ffmpegInput, ffmpegPath, run } from "../tools.mjs";

/**
 * Speech recognition (operation class "transcribe", the task «Расшифровка»; docs/decisions/059-transcripts.md):
 * the source's first audio track as 16 kHz mono WAV (what Whisper-family models take in), cut into pieces at
 * silences so no word is split, each piece sent to an OpenAI-compatible /v1/audio/transcriptions endpoint
 * (TRANSCRIBE_URL, TRANSCRIBE_MODEL, TRANSCRIBE_KEY optional) with response_format=verbose_json; the pieces'
 * segments come back shifted to the source's time line, with word timings where the engine gives them.
 */

/** A piece is at most this long: under the 25 MB request limit such endpoints have (16 kHz mono s16 is 1.9 MB a minute). */
export const MAX_PIECE_SECONDS = 120;
const SAMPLE_RATE = 16_000;

/** silencedetect's report lines → [start, end] of each silence. */
export function silencesOf(lines) {
  const out = [];
  /** @type {number | null} */
  let start = null;
  for (const line of lines) {
    const s = /silence_start: (-?[\d.]+)/.exec(line);
    if (s) start = Math.max(0, Number(s[1]));
    const e = /silence_end: ([\d.]+)/.exec(line);
    if (e && start !== null) {
      out.push([start, Number(e[1])]);
      start = null;
    }
  }
  return out;
}

/**
 * Where to cut: pieces no longer than `max`, each ending in the middle of the last silence before its limit;
 * where a stretch has no silence, it is cut hard at the limit.
 */
export function cutPoints(silences, duration, max = MAX_PIECE_SECONDS) {
  const mids = silences.map(([a, b]) => (a + b) / 2).filter((m) => m > 0 && m < duration);
  const cuts = [];
  let from = 0;
  while (duration - from > max) {
    const limit = from + max;
    const candidates = mids.filter((m) => m > from + 1 && m <= limit);
    const cut = candidates.length ? candidates[candidates.length - 1] : limit;
    cuts.push(cut);
    from = cut;
  }
  return cuts;
}

/** The recogniser's settings from the environment, or null when none is configured. */
export function recognizerFromEnv(env = process.env) {
  if (!env.TRANSCRIBE_URL) return null;
  return { url: env.TRANSCRIBE_URL, model: env.TRANSCRIBE_MODEL || "whisper-1", key: env.TRANSCRIBE_KEY || "" };
}

/**
 * The Worker's own recogniser (its Workers AI binding), named in the job when it has no TRANSCRIBE_URL: the task's
 * callback answers like an OpenAI-compatible endpoint and takes the run's token instead of an API key.
 */
export function recognizerFromJob(job) {
  const r = job.setup?.recognizer;
  if (!r?.url || !job.callback?.token) return null;
  return { endpoint: r.url, model: r.model, headers: { "X-Task-Token": job.callback.token } };
}

/** The endpoint's address: TRANSCRIBE_URL may be the server's base, its /v1, or the full path. */
export function endpointOf(url) {
  const u = url.replace(/\/+$/, "");
  if (u.endsWith("/audio/transcriptions")) return u;
  return u.endsWith("/v1") ? `${u}/audio/transcriptions` : `${u}/v1/audio/transcriptions`;
}

const round = (n) => Math.round(n * 1000) / 1000;

/** One piece to the endpoint; its verbose_json segments (and words) shifted by `offset`. */
export async function recognizePiece(rec, wav, { offset, language, signal }) {
  const form = new FormData();
  form.append("file", new Blob([wav], { type: "audio/wav" }), "piece.wav");
  form.append("model", rec.model);
  form.append("response_format", "verbose_json");
  form.append("timestamp_granularities[]", "segment");
  form.append("timestamp_granularities[]", "word");
  form.append("temperature", "0");
  if (language) form.append("language", language);
  const res = await fetch(rec.endpoint ?? endpointOf(rec.url), {
    method: "POST",
    body: form,
    headers: rec.key ? { Authorization: `Bearer ${rec.key}` } : (rec.headers ?? {}),
    signal,
  });
  if (!res.ok) throw new Error(`распознаватель ответил HTTP ${res.status}: ${(await res.text()).slice(0, 300)}`);
  const body = await res.json();
  const words = Array.isArray(body.words) ? body.words : [];
  const segs =
    Array.isArray(body.segments) && body.segments.length
      ? body.segments
      : body.text
        ? [{ start: 0, end: body.duration ?? 0, text: body.text }]
        : [];
  return {
    language: typeof body.language === "string" ? body.language : undefined,
    segments: segs
      .map((s) => {
        const text = String(s.text ?? "").trim();
        const own = words.filter((w) => w.start >= s.start && w.start < s.end);
        return {
          start: round(offset + Number(s.start)),
          end: round(offset + Math.max(Number(s.end), Number(s.start))),
          text,
          ...(own.length
            ? {
                words: own.map((w) => ({
                  start: round(offset + w.start),
                  end: round(offset + Math.max(w.end, w.start)),
                  word: String(w.word).trim(),
                })),
              }
            : {}),
        };
      })
      .filter((s) => s.text),
  };
}

/** Whisper's names for languages ("russian") to the codes transcripts carry. */
const languageCodes = {
  russian: "ru",
  english: "en",
  german: "de",
  french: "fr",
  spanish: "es",
  italian: "it",
  ukrainian: "uk",
  chinese: "zh",
};
const languageCode = (l) => (l ? (languageCodes[l.toLowerCase()] ?? (l.length <= 3 ? l.toLowerCase() : undefined)) : undefined);

/** The transcoder's own endpoint setting wins; otherwise the one the job names (the Worker's binding). */
export async function transcribeOperation(job, ctx, rec = recognizerFromEnv() ?? recognizerFromJob(job)) {
  if (!rec) throw new Error("Распознавание речи не настроено (TRANSCRIBE_URL)");
  const wavFile = path.join(ctx.dir, "audio16k.wav");
  const lines = [];
  // One pass: the 16 kHz mono proxy and silencedetect's report (-30 dB for half a second is a pause between phrases).
  await run(
    ffmpegPath,
    [
      "-hide_banner",
      "-nostats",
      ...ffmpegInput,
      "-i",
      ctx.src,
      "-map",
      "0:a:0",
      "-vn",
      "-ac",
      "1",
      "-ar",
      String(SAMPLE_RATE),
      "-af",
      "silencedetect=noise=-30dB:d=0.5",
      "-c:a",
      "pcm_s16le",
      "-y",
      wavFile,
    ],
    { signal: ctx.signal, onLine: (l) => lines.push(l) },
  );
  const wav = await readFile(wavFile);
  // A canonical 44-byte header from ffmpeg, 2 bytes a sample.
  const dataStart = wav.indexOf("data") + 8;
  const duration = (wav.length - dataStart) / (SAMPLE_RATE * 2);
  const cuts = cutPoints(silencesOf(lines), duration, job.setup?.max_piece_seconds ?? MAX_PIECE_SECONDS);
  const bounds = [0, ...cuts, duration];
  ctx.log(`Аудио ${duration.toFixed(1)} с, кусков: ${bounds.length - 1}`);
  const segments = [];
  let language = job.setup?.language;
  for (let i = 0; i + 1 < bounds.length; i++) {
    const from = bounds[i];
    const to = bounds[i + 1];
    const a = dataStart + Math.round(from * SAMPLE_RATE) * 2;
    const b = dataStart + Math.round(to * SAMPLE_RATE) * 2;
    const piece = wavPiece(wav.subarray(a, b));
    const got = await recognizePiece(rec, piece, { offset: from, language: job.setup?.language, signal: ctx.signal });
    language ??= languageCode(got.language);
    segments.push(...got.segments);
    ctx.progress(((i + 1) / (bounds.length - 1)) * 99, `Распознано ${i + 1} из ${bounds.length - 1}`);
  }
  ctx.log(`Сегментов: ${segments.length}`);
  return { transcript: { language: language ?? "", segments }, tech: {} };
}

/** PCM samples (16 kHz mono s16le) as a WAV file. */
export function wavPiece(pcm) {
  const h = Buffer.alloc(44);
  h.write("RIFF", 0);
  h.writeUInt32LE(36 + pcm.length, 4);
  h.write("WAVE", 8);
  h.write("fmt ", 12);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(SAMPLE_RATE, 24);
  h.writeUInt32LE(SAMPLE_RATE * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write("data", 36);
  h.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([h, pcm]);
}
