import type { z } from "@hono/zod-openapi";
import * as transcripts from "../../../shared/transcripts/contract";
import type { Segment, trackOut, TranscriptOut } from "../../../shared/transcripts/schemas";
import { ApiError, call } from "../../lib/api";

/** The viewer's calls to /api/transcripts (docs/decisions/059-transcripts.md); the shapes are the API's own schemas. */

export type { Segment, TranscriptOut };
export type TrackLink = z.infer<typeof trackOut>;

/** A version's transcript, or null when it has none (the API's 404). */
export async function transcriptOf(assetId: string, version: number, signal?: AbortSignal): Promise<TranscriptOut | null> {
  try {
    return await call(transcripts.getTranscript, { params: { asset_id: assetId }, query: { version }, signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** A signed WebVTT link for the player's <track>, which cannot send the bearer. */
export const trackLink = (assetId: string, version: number, signal?: AbortSignal) =>
  call(transcripts.trackLink, { params: { asset_id: assetId }, query: { version }, signal });

export const saveSegments = (assetId: string, version: number, segments: Segment[]) =>
  call(transcripts.editTranscript, { params: { asset_id: assetId }, query: { version }, body: { segments } });

/** «Перенести расшифровку»: another version's transcript copied onto this one. */
export const copyTranscript = (assetId: string, version: number, fromVersion: number) =>
  call(transcripts.copyTranscript, { params: { asset_id: assetId }, query: { version, from_version: fromVersion } });

export const recognize = (assetId: string, version: number) =>
  call(transcripts.recognize, { params: { asset_id: assetId }, body: { version } });

/** What the viewer knows of the shown version's transcript when it opens. */
export interface TranscriptState {
  transcript: TranscriptOut | null;
  track: TrackLink | null;
  /** Without a transcript: the version just before the shown one, when it has one («Перенести расшифровку»). */
  copyFrom: number | null;
}

/**
 * Loaded with the rest of the viewer, so the <video> carries its track from the start. `versions` is newest
 * first. A failure leaves the panel off rather than the file unviewable.
 */
export async function loadTranscript(
  assetId: string,
  version: number,
  versions: number[],
  canUpdate: boolean,
  signal?: AbortSignal,
): Promise<TranscriptState> {
  try {
    const transcript = await transcriptOf(assetId, version, signal);
    if (transcript) return { transcript, track: await trackLink(assetId, version, signal), copyFrom: null };
    const previous = versions.filter((v) => v < version).sort((a, b) => b - a)[0];
    const copyFrom = canUpdate && previous !== undefined && (await transcriptOf(assetId, previous, signal)) ? previous : null;
    return { transcript: null, track: null, copyFrom };
  } catch (error) {
    if (signal?.aborted) throw error;
    console.error(error);
    return { transcript: null, track: null, copyFrom: null };
  }
}
