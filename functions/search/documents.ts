import { sql } from "drizzle-orm";
import type { Db } from "../lib/db";
import { uuidRe } from "../../shared/groups/schemas";
import { MAX_DOCUMENT_TEXT } from "../../shared/lib/constants";
import { idList } from "../lib/sql";
import { placementKey } from "./placement";

/**
 * What a search document is made of, read for a set of assets and groups at once: names, tags, taxon paths
 * (names joined by " / "), the strings of text and struct field values, the transcript, tech words of the latest version's
 * main variant, and extracted document text.
 */

export interface TranscriptSegment {
  start: number;
  text: string;
}

export interface SourceDoc {
  elId: string;
  elType: "asset" | "group";
  name: string;
  mime: string | null;
  classId: string | null;
  ctime: number;
  size: number | null;
  tags: string[];
  taxa: string[];
  fields: string[];
  tech: string[];
  text: string;
  /**
   * The latest version's transcript, its segments in order up to MAX_DOCUMENT_TEXT characters of text: matched in
   * the document's FTS row and, per segment, in search_segments; kept out of search_docs.body, which snippets scan.
   */
  transcript: TranscriptSegment[];
  /** Its placement set's key (functions/search/placement.ts). */
  placement: string;
}

/** The strings in a field value (a struct's, a list's), but not references to objects by id. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") {
    if (!uuidRe.test(value)) out.push(value);
  } else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) strings(v, out);
  return out;
}

/** Words for the technical properties people search by: codecs, container, 1920x1080, 1080p. */
function techWords(props: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const key of ["video_codec", "audio_codec", "container", "resolution", "format"]) {
    const v = props[key];
    if (typeof v === "string" && v) out.push(v);
  }
  if (typeof props.height === "number") out.push(`${props.height}p`);
  return out;
}

const push = (map: Map<string, string[]>, key: string, value: string) => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};

export async function loadSources(db: Db, ids: string[]): Promise<Map<string, SourceDoc>> {
  const list = idList(ids);
  const [assetRows, groupRows, tagRows, taxonRows, fieldRows, variantRows, textRows, placementRows, transcriptRows] = await Promise.all([
    db.all<{ id: string; name: string; mime: string; class_id: string | null; ctime: number; owner: string }>(
      sql`SELECT asset_id AS id, name, mimetype AS mime, class_id, ctime, owner FROM assets WHERE asset_id IN ${list}`,
    ),
    db.all<{ id: string; name: string; ctime: number }>(
      sql`SELECT group_id AS id, group_name AS name, ctime FROM groups WHERE group_id IN ${list}`,
    ),
    db.all<{ id: string; name: string }>(
      sql`SELECT et.entity_id AS id, t.tag_name AS name FROM entity_tags et JOIN tags t ON t.tag_id = et.tag_id WHERE et.entity_id IN ${list}`,
    ),
    db.all<{ id: string; path: string }>(
      sql`SELECT m.object_id AS id, t.path FROM taxon_members m JOIN taxa t ON t.taxon_id = m.taxon_id WHERE m.object_id IN ${list}`,
    ),
    db.all<{ id: string; data: string }>(
      sql`SELECT fv.entity_id AS id, fv.field_data AS data FROM field_values fv JOIN field_templates ft ON ft.field_def_id = fv.def_id
        WHERE fv.entity_id IN ${list} AND ft.field_type IN ('text', 'struct')`,
    ),
    // The main variant of the latest version, as the group list's size column picks it.
    db.all<{ id: string; size: number; tech: string }>(
      sql`SELECT v.asset_id AS id, v.content_size AS size, v.tech_props AS tech FROM variants v WHERE v.asset_id IN ${list}
        ORDER BY v.asset_id, v.version DESC, v.variant_type IN ('master', 'initial') DESC, v.ctime`,
    ),
    db.all<{ id: string; text: string }>(
      sql`SELECT asset_id AS id, substr(text, 1, ${MAX_DOCUMENT_TEXT}) AS text FROM search_texts WHERE asset_id IN ${list}`,
    ),
    db.all<{ id: string; group_id: string }>(
      sql`SELECT el_id AS id, group_id FROM group_members WHERE el_id IN ${list} AND el_type = 'asset'`,
    ),
    // The latest version's transcript, its segments' start and text in order (a new version starts without one).
    db.all<{ id: string; segments: string }>(
      sql`SELECT t.asset_id AS id, json_group_array(json_array(json_extract(s.value, '$.start'), json_extract(s.value, '$.text'))) AS segments
        FROM transcripts t, json_each(t.segments) s
        WHERE t.asset_id IN ${list} AND t.version = (SELECT max(v.version) FROM versions v WHERE v.asset_id = t.asset_id)
        GROUP BY t.asset_id`,
    ),
  ]);

  const taxonNames = await taxonNamesOf(
    db,
    taxonRows.flatMap((r) => r.path.split("/").filter(Boolean)),
  );
  const tags = new Map<string, string[]>();
  for (const r of tagRows) push(tags, r.id, r.name);
  const placements = new Map<string, string[]>();
  for (const r of placementRows) push(placements, r.id, r.group_id);
  const taxa = new Map<string, string[]>();
  for (const r of taxonRows)
    push(
      taxa,
      r.id,
      r.path
        .split("/")
        .filter(Boolean)
        .map((id) => taxonNames.get(id) ?? "")
        .join(" / "),
    );
  const fields = new Map<string, string[]>();
  for (const r of fieldRows) for (const s of strings(JSON.parse(r.data))) push(fields, r.id, s);
  const transcripts = new Map<string, TranscriptSegment[]>();
  for (const r of transcriptRows) {
    const segments: TranscriptSegment[] = [];
    let length = 0;
    for (const [start, text] of JSON.parse(r.segments) as [number, string | null][]) {
      if (!text) continue;
      length += text.length + 1;
      if (length > MAX_DOCUMENT_TEXT) break;
      segments.push({ start, text });
    }
    transcripts.set(r.id, segments);
  }
  const main = new Map<string, { size: number; tech: string }>();
  for (const r of variantRows) if (!main.has(r.id)) main.set(r.id, r);
  const texts = new Map(textRows.map((r) => [r.id, r.text]));

  const docs = new Map<string, SourceDoc>();
  const common = (id: string) => ({ tags: tags.get(id) ?? [], taxa: taxa.get(id) ?? [], fields: fields.get(id) ?? [] });
  for (const a of assetRows) {
    const v = main.get(a.id);
    docs.set(a.id, {
      elId: a.id,
      elType: "asset",
      name: a.name,
      mime: a.mime,
      classId: a.class_id,
      ctime: a.ctime,
      size: v?.size ?? null,
      ...common(a.id),
      tech: v ? techWords(JSON.parse(v.tech || "{}")) : [],
      text: texts.get(a.id) ?? "",
      transcript: transcripts.get(a.id) ?? [],
      placement: placementKey({ groups: placements.get(a.id) ?? [], owner: a.owner }),
    });
  }
  for (const g of groupRows)
    docs.set(g.id, {
      elId: g.id,
      elType: "group",
      name: g.name,
      mime: null,
      classId: null,
      ctime: g.ctime,
      size: null,
      ...common(g.id),
      tech: [],
      text: "",
      transcript: [],
      placement: placementKey({ group: g.id }),
    });
  return docs;
}

async function taxonNamesOf(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db.all<{ id: string; name: string }>(
    sql`SELECT taxon_id AS id, name FROM taxa WHERE taxon_id IN ${idList([...new Set(ids)])}`,
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}
