import type { WorkersAiLike } from "../lib/bindings";
import { toBase64 } from "../../shared/lib/encoding";

/**
 * Speech recognition through the Workers AI binding (docs/decisions/059-transcripts.md), production's recogniser
 * when no TRANSCRIBE_URL is set. The transcoder cannot call a binding, so it sends each 16 kHz mono WAV piece to the
 * Worker (POST /api/task-cb/{id}/audio/transcriptions, with the task's token) as it would to an OpenAI-compatible
 * endpoint, and gets the answer back in the same verbose_json shape.
 */
export const WHISPER_MODEL = "@cf/openai/whisper-large-v3-turbo";

/**
 * Whisper's hallucination controls: voice activity detection drops the silences Whisper would fill with invented
 * text, a segment that is likely no speech is dropped, and each window is decoded without the previous one's
 * text, so one invented phrase is not repeated down the recording.
 */
export const WHISPER_OPTIONS = {
  task: "transcribe",
  vad_filter: true,
  no_speech_threshold: 0.6,
  condition_on_previous_text: false,
} as const;

interface WhisperWord {
  word: string;
  start: number;
  end: number;
}

/** What @cf/openai/whisper-large-v3-turbo answers (the fields used here). */
interface WhisperAnswer {
  text?: string;
  transcription_info?: { language?: string; duration?: number };
  segments?: { start: number; end: number; text: string; words?: WhisperWord[] }[];
}

/** The verbose_json shape of OpenAI's /v1/audio/transcriptions, which the transcoder reads. */
export interface VerboseJson {
  task: "transcribe";
  language?: string;
  duration?: number;
  text: string;
  segments: { id: number; start: number; end: number; text: string }[];
  words: WhisperWord[];
}

export async function recognizeWithBinding(ai: WorkersAiLike, wav: Uint8Array, language?: string): Promise<VerboseJson> {
  const answer = (await ai.run(WHISPER_MODEL, {
    audio: toBase64(wav),
    ...WHISPER_OPTIONS,
    ...(language ? { language } : {}),
  })) as WhisperAnswer;
  const segments = answer.segments ?? [];
  return {
    task: "transcribe",
    language: answer.transcription_info?.language,
    duration: answer.transcription_info?.duration,
    text: answer.text ?? segments.map((s) => s.text).join(" "),
    segments: segments.map((s, id) => ({ id, start: s.start, end: s.end, text: s.text })),
    words: segments.flatMap((s) => s.words ?? []),
  };
}
