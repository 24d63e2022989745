import { and, desc, eq, lt } from "drizzle-orm";
import { assets, type Transcript, transcripts, versions } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { requireAccess } from "../lib/access";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { MAX_SEGMENT_TEXT, MAX_SEGMENTS, type Segment, type TranscriptOut } from "../../shared/transcripts/schemas";
import { type Cue, parseSubtitles, SubtitleError, toSrt, toText, toVtt } from "./subtitles";

/** Transcripts of asset versions: reading needs read on the asset, writing needs update (docs/decisions/059-transcripts.md). */

export const out = (t: Transcript): TranscriptOut => ({
  asset_id: t.assetId,
  version: t.version,
  language: t.language,
  source: t.source,
  segments: t.segments,
  mtime: t.mtime,
});

const badVersion = (message: string) => new ApiError("validation", message, [{ field: "version", message }]);

/** The version asked for, or the latest; an asset without it answers 400 naming `version`. */
export async function resolveVersion(db: Db, assetId: string, version: number | undefined): Promise<number> {
  const where = version === undefined ? eq(versions.assetId, assetId) : and(eq(versions.assetId, assetId), eq(versions.version, version));
  const [row] = await db.select({ version: versions.version }).from(versions).where(where).orderBy(desc(versions.version)).limit(1);
  if (!row) throw badVersion(version === undefined ? "у файла ещё нет версий" : `у файла нет версии ${version}`);
  return row.version;
}

async function readable(db: Db, auth: AuthUser, assetId: string, permission: "read" | "update", version: number | undefined) {
  await requireAccess(db, auth, permission, [assetId], { types: ["asset"] });
  return resolveVersion(db, assetId, version);
}

async function load(db: Db, assetId: string, version: number): Promise<Transcript | undefined> {
  const [row] = await db
    .select()
    .from(transcripts)
    .where(and(eq(transcripts.assetId, assetId), eq(transcripts.version, version)));
  return row;
}

export const noTranscript = () => new ApiError("not_found", "У этой версии нет расшифровки");

export async function getTranscript(db: Db, auth: AuthUser, assetId: string, version?: number): Promise<TranscriptOut> {
  const v = await readable(db, auth, assetId, "read", version);
  const row = await load(db, assetId, v);
  if (!row) throw noTranscript();
  return out(row);
}

/**
 * Writes a version's transcript (replacing one it had) and its event in one batch. Used by import, edit and
 * recognition alike, so a transcript is always whole.
 */
export async function saveTranscript(
  db: Db,
  userId: string | null,
  t: {
    assetId: string;
    version: number;
    language?: string;
    source: Transcript["source"];
    segments: Segment[];
    /** A copy from another version (copyTranscript): the event says which. */
    copiedFrom?: number;
  },
): Promise<TranscriptOut> {
  const now = nowSeconds();
  const previous = await load(db, t.assetId, t.version);
  const row: Transcript = {
    assetId: t.assetId,
    version: t.version,
    language: t.language ?? previous?.language ?? "",
    source: t.source,
    segments: t.segments,
    userId,
    ctime: previous?.ctime ?? now,
    mtime: now,
  };
  await db.batch([
    db
      .insert(transcripts)
      .values(row)
      .onConflictDoUpdate({
        target: [transcripts.assetId, transcripts.version],
        set: { language: row.language, source: row.source, segments: row.segments, userId, mtime: now },
      }),
    eventInsert(db, {
      kind: `transcript.${t.source}`,
      userId,
      entityType: "asset",
      entityId: t.assetId,
      data: {
        version: t.version,
        language: row.language,
        segments: t.segments.length,
        ...(t.copiedFrom === undefined ? {} : { from_version: t.copiedFrom }),
      },
    }),
  ]);
  return out(row);
}

/** Parsed cues within the API's limits, or a 400 naming the body's line. */
export async function readSubtitles(body: string): Promise<Cue[]> {
  let cues: Cue[];
  try {
    cues = (await parseSubtitles(body)).cues;
  } catch (e) {
    if (e instanceof SubtitleError)
      throw new ApiError("validation", `Файл субтитров не читается: ${e.message}`, [{ field: `line ${e.line}`, message: e.reason }]);
    throw e;
  }
  if (cues.length > MAX_SEGMENTS)
    throw new ApiError("validation", `Больше ${MAX_SEGMENTS} субтитров`, [
      { field: "(тело запроса)", message: `не больше ${MAX_SEGMENTS} субтитров` },
    ]);
  const long = cues.findIndex((c) => c.text.length > MAX_SEGMENT_TEXT);
  if (long >= 0)
    throw new ApiError("validation", `Субтитр ${long + 1} длиннее ${MAX_SEGMENT_TEXT} символов`, [
      { field: `cue ${long + 1}`, message: `не длиннее ${MAX_SEGMENT_TEXT} символов` },
    ]);
  return cues;
}

export async function importTranscript(
  db: Db,
  auth: AuthUser,
  assetId: string,
  q: { version?: number; language?: string },
  body: string,
): Promise<{ version: number; segments: Segment[] }> {
  const version = await readable(db, auth, assetId, "update", q.version);
  const segments = await readSubtitles(body);
  const saved = await saveTranscript(db, auth.userId, { assetId, version, language: q.language, source: "import", segments });
  return { version, segments: saved.segments };
}

export async function editTranscript(
  db: Db,
  auth: AuthUser,
  assetId: string,
  version: number | undefined,
  patch: { language?: string; segments: Segment[] },
): Promise<TranscriptOut> {
  const v = await readable(db, auth, assetId, "update", version);
  return saveTranscript(db, auth.userId, { assetId, version: v, language: patch.language, source: "edit", segments: patch.segments });
}

const formats = {
  srt: { type: "application/x-subrip; charset=utf-8", write: toSrt },
  vtt: { type: "text/vtt; charset=utf-8", write: toVtt },
  txt: { type: "text/plain; charset=utf-8", write: toText },
} as const;

/** The transcript as a file: UTF-8 without a byte order mark, named after the asset. */
export async function exportTranscript(db: Db, auth: AuthUser, assetId: string, version: number | undefined, format: keyof typeof formats) {
  const v = await readable(db, auth, assetId, "read", version);
  const [row, [asset]] = await Promise.all([
    load(db, assetId, v),
    db.select({ name: assets.name }).from(assets).where(eq(assets.assetId, assetId)),
  ]);
  if (!row) throw noTranscript();
  const name = (asset?.name ?? "").replace(/\.[^.]*$/, "");
  return { body: formats[format].write(row.segments), type: formats[format].type, filename: `${name || "transcript"}.${format}` };
}

/**
 * «Перенести расшифровку»: a new version starts without a transcript, and this copies another version's onto it
 * (the previous one when `from_version` is absent), keeping its language, source and segments. A version that
 * already has a transcript answers 409: replacing one is an edit (PATCH), not a copy.
 */
export async function copyTranscript(
  db: Db,
  auth: AuthUser,
  assetId: string,
  q: { version?: number; from_version?: number },
): Promise<TranscriptOut> {
  const version = await readable(db, auth, assetId, "update", q.version);
  const fromError = (message: string) => new ApiError("validation", message, [{ field: "from_version", message }]);
  let from = q.from_version;
  if (from === undefined) {
    const [previous] = await db
      .select({ version: versions.version })
      .from(versions)
      .where(and(eq(versions.assetId, assetId), lt(versions.version, version)))
      .orderBy(desc(versions.version))
      .limit(1);
    if (!previous) throw fromError(`у версии ${version} нет предыдущей`);
    from = previous.version;
  } else if (from === version) throw fromError("та же версия, что и version");
  else {
    const [exists] = await db
      .select({ version: versions.version })
      .from(versions)
      .where(and(eq(versions.assetId, assetId), eq(versions.version, from)));
    if (!exists) throw fromError(`у файла нет версии ${from}`);
  }
  const [source, target] = await Promise.all([load(db, assetId, from), load(db, assetId, version)]);
  if (!source) throw new ApiError("not_found", `У версии ${from} нет расшифровки`);
  if (target) throw new ApiError("conflict", "У этой версии уже есть расшифровка");
  return saveTranscript(db, auth.userId, {
    assetId,
    version,
    language: source.language,
    source: source.source,
    segments: source.segments,
    copiedFrom: from,
  });
}
