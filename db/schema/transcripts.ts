import { primaryKey, sqliteTable, text, integer } from "drizzle-orm/sqlite-core";
import { unixTime } from "./columns";

/** One transcript segment (shared/transcripts/schemas.ts has its zod twin); times in seconds. */
export interface TranscriptSegment {
  id?: string;
  start: number;
  end: number;
  text: string;
  speaker?: string;
  settings?: string;
  words?: { start: number; end: number; word: string }[];
}

/**
 * The transcript of an asset version (docs/decisions/059-transcripts.md): its segments as one JSON array, since
 * they are always read, written and exported together; search indexes their text with the asset (a trigger in
 * the migration marks it dirty).
 */
export const transcripts = sqliteTable(
  "transcripts",
  {
    assetId: text("asset_id").notNull(),
    version: integer("version").notNull(),
    language: text("language").notNull().default(""),
    source: text("source", { enum: ["import", "asr", "edit"] }).notNull(),
    segments: text("segments", { mode: "json" }).$type<TranscriptSegment[]>().notNull(),
    userId: text("user_id"),
    ctime: unixTime("ctime").notNull(),
    mtime: unixTime("mtime").notNull(),
  },
  (t) => [primaryKey({ columns: [t.assetId, t.version] })],
);

export type Transcript = typeof transcripts.$inferSelect;
