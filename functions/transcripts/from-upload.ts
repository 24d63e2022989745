import { and, desc, eq, inArray, ne, or, sql } from "drizzle-orm";
import { assets, groupMembers, variants, versions, type Variant } from "../../db/schema";
import { requireAccess } from "../lib/access";
import type { Db } from "../lib/db";
import { driverFor, getStorage } from "../lib/storage";
import { ownerAuth } from "../lib/owner";
import { readSubtitles, saveTranscript } from "./service";

/**
 * A subtitle file uploaded where a video is becomes that video's transcript (docs/decisions/059-transcripts.md):
 * - as a variant of a video or audio asset (any variant but the original): that version's transcript;
 * - as a file of its own next to a video or audio file of the same base name in one of its groups
 *   («Интервью.srt» or «Интервью.ru.srt» beside «Интервью.mp4»): the video's latest version's transcript.
 * The uploader must be allowed to update the video (the permission engine decides, as for the import route); a file
 * that does not parse stays what it is, an uploaded file, and imports nothing.
 */

const SUBTITLE_FILE = /\.(srt|vtt)$/i;
/** The import route's limit on a subtitle body. */
const MAX_SUBTITLE_BYTES = 8 * 1024 * 1024;
const isMedia = (mime: string) => /^(video|audio)\//i.test(mime);

/** «Интервью.ru.srt» → base «Интервью», language «ru»; «Интервью.srt» → base «Интервью». */
export function subtitleName(fileName: string): { base: string; language?: string } {
  const stem = fileName.replace(SUBTITLE_FILE, "");
  const lang = /^(.*)\.([a-z]{2,3})$/i.exec(stem);
  return lang ? { base: lang[1]!, language: lang[2]!.toLowerCase() } : { base: stem };
}

const stemOf = (name: string) => name.replace(/\.[^.]*$/, "");

/** The video or audio asset the subtitle variant belongs with, and which version; null when there is none. */
async function targetOf(db: Db, v: Variant, base: string): Promise<{ assetId: string; version: number } | null> {
  const [own] = await db.select({ mime: assets.mimetype }).from(assets).where(eq(assets.assetId, v.assetId));
  if (v.variantType !== "initial") return own && isMedia(own.mime ?? "") ? { assetId: v.assetId, version: v.version } : null;
  // A file of its own: a media asset of the same base name sharing one of its groups.
  const groups = db
    .select({ id: groupMembers.groupId })
    .from(groupMembers)
    .where(and(eq(groupMembers.elId, v.assetId), eq(groupMembers.elType, "asset")));
  const neighbours = await db
    .select({ assetId: assets.assetId, name: assets.name, mime: assets.mimetype })
    .from(groupMembers)
    .innerJoin(assets, eq(assets.assetId, groupMembers.elId))
    .where(
      and(
        inArray(groupMembers.groupId, groups),
        eq(groupMembers.elType, "asset"),
        ne(assets.assetId, v.assetId),
        or(sql`${assets.mimetype} LIKE 'video/%'`, sql`${assets.mimetype} LIKE 'audio/%'`),
      ),
    );
  const match = neighbours.find((n) => stemOf(n.name).toLowerCase() === base.toLowerCase());
  if (!match) return null;
  const [latest] = await db
    .select({ version: versions.version })
    .from(versions)
    .where(eq(versions.assetId, match.assetId))
    .orderBy(desc(versions.version))
    .limit(1);
  return latest ? { assetId: match.assetId, version: latest.version } : null;
}

export async function importUploadedSubtitles(db: Db, env: Parameters<typeof driverFor>[0], variantId: string, userId: string) {
  const [v] = await db.select().from(variants).where(eq(variants.variantId, variantId));
  if (!v || !SUBTITLE_FILE.test(v.fileName) || v.contentSize > MAX_SUBTITLE_BYTES) return null;
  const { base, language } = subtitleName(v.fileName);
  const target = await targetOf(db, v, base);
  if (!target) return null;
  const uploader = await ownerAuth(db, userId);
  if (!uploader) return null;
  try {
    await requireAccess(db, uploader, "update", [target.assetId], { types: ["asset"] });
  } catch {
    return null; // the uploader may not change the video: the file stays a file
  }
  const object = await (await driverFor(env, await getStorage(db, v.storageId))).get(v.objectKey);
  if (!object) return null;
  let segments: Awaited<ReturnType<typeof readSubtitles>>;
  try {
    segments = await readSubtitles(await new Response(object.body).text());
  } catch {
    return null;
  }
  await saveTranscript(db, userId, { ...target, language, source: "import", segments });
  return target;
}
