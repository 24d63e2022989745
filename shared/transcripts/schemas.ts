import { z } from "@hono/zod-openapi";
import { entityId } from "../groups/schemas";

/** Transcripts of asset versions (docs/decisions/059-transcripts.md); shared by the API and the viewer's panel. */

export const transcriptSources = ["import", "asr", "edit"] as const;
export const exportFormats = ["srt", "vtt", "txt"] as const;

/** A transcript of a feature film is ~2,000 cues; this leaves room for a day of speech. */
export const MAX_SEGMENTS = 50_000;
export const MAX_SEGMENT_TEXT = 2_000;
/** An SRT/WebVTT body: 8 MiB is several days of cues. */
export const MAX_SUBTITLE_BYTES = 8 * 1024 * 1024;
/** The body types an SRT or WebVTT file arrives as (browsers send .srt as text/plain or nothing at all). */
export const subtitleTypes = ["text/plain", "application/x-subrip", "text/vtt", "text/srt"];

const seconds = z.number({ error: "должно быть числом секунд" }).min(0, "не меньше 0").max(1_000_000, "слишком большое время");

export const segment = z
  .object({
    id: z.string().max(200, "не длиннее 200 символов").optional(),
    start: seconds,
    end: seconds,
    text: z
      .string({ error: "должно быть строкой" })
      .max(MAX_SEGMENT_TEXT, `не длиннее ${MAX_SEGMENT_TEXT} символов`)
      // An empty line or an arrow inside a cue would end the cue or be read as a timing line in SRT/WebVTT.
      .refine((t) => !/\n[ \t]*(\n|$)/.test(t.replace(/\r\n?/g, "\n")), "без пустых строк внутри")
      .refine((t) => !t.includes("-->"), "без «-->»"),
    speaker: z
      .string()
      .max(200, "не длиннее 200 символов")
      .regex(/^[^<>\n]*$/, "без <, > и переводов строки")
      .optional(),
    settings: z
      .string()
      .max(200)
      .regex(/^[^\n]*$/, "одной строкой")
      .optional(),
    words: z
      .array(z.object({ start: seconds, end: seconds, word: z.string().max(200) }))
      .max(10_000)
      .optional(),
  })
  .refine((s) => s.end >= s.start, { message: "конец раньше начала", path: ["end"] })
  .openapi("TranscriptSegment");

const language = z
  .string()
  .regex(/^([a-z]{2,3}(-[A-Za-z0-9]{2,8})*)?$/, "код языка, например ru или en-US")
  .max(35)
  .openapi({ example: "ru" });

const version = z.coerce
  .number({ error: "должно быть числом" })
  .int("должно быть целым")
  .min(1, "нумерация с 1")
  .optional()
  .openapi({ description: "the asset version; the latest when absent" });

export const assetParam = z.object({ asset_id: entityId.openapi({ param: { name: "asset_id", in: "path" } }) });
export const versionQuery = z.object({ version });
export const importQuery = z.object({ version, language: language.optional() });
export const exportQuery = z.object({
  version,
  format: z.enum(exportFormats, { error: "srt, vtt или txt" }).default("srt"),
});

/** The version a track link was signed for, the session it is bound to, and the signature (functions/transcripts/track.ts). */
export const trackQuery = z.object({
  version,
  s: z.string().max(80).optional(),
  exp: z.string().max(20).optional(),
  sig: z.string().max(128).optional(),
});
export const trackOut = z
  .object({ link: z.string(), expire: z.number().int(), version: z.number().int(), mtime: z.number().int() })
  .openapi("TranscriptTrack");
export const copyQuery = z.object({
  version,
  from_version: z.coerce
    .number({ error: "должно быть числом" })
    .int("должно быть целым")
    .min(1, "нумерация с 1")
    .optional()
    .openapi({ description: "the version to copy from; the one before `version` when absent" }),
});

export const transcriptOut = z
  .object({
    asset_id: z.string(),
    version: z.number().int(),
    language: z.string(),
    source: z.enum(transcriptSources),
    segments: z.array(segment),
    mtime: z.number().int(),
  })
  .openapi("Transcript");

export const segmentsOut = z.object({ version: z.number().int(), segments: z.array(segment) });

export const transcriptPatch = z.object({
  language: language.optional(),
  segments: z.array(segment).max(MAX_SEGMENTS, `не больше ${MAX_SEGMENTS} сегментов`),
});

export const recognizeBody = z.object({
  language: language.optional(),
  version: z.number({ error: "должно быть числом" }).int("должно быть целым").min(1, "нумерация с 1").optional(),
});
export const recognizeOut = z.object({ job_id: z.string(), version: z.number().int(), status: z.string() });

export type Segment = z.infer<typeof segment>;
export type TranscriptOut = z.infer<typeof transcriptOut>;
