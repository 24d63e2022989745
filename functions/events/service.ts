import { and, sql, type SQL } from "drizzle-orm";
import { accessContext, permissionsOn, requireAccess, resolveObjects, type AccessContext } from "../lib/access";
import { assetFilter, groupFilter } from "../lib/access-sql";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import type { EventItem, EventName, EventsListBody } from "../../shared/events/schemas";

/**
 * The global events list (docs/decisions/043-events-list.md): newest first by the table's rowid, which only grows,
 * so a cursor (the last rowid seen) pages the same rows however many events arrive meanwhile. Admins read every
 * event; others the events of the assets and groups they can read and their own account's, filtered in SQL.
 */

export const e = {
  rowid: sql.raw("e.rowid"),
  kind: sql.raw("e.kind"),
  ctime: sql.raw("e.ctime"),
  userId: sql.raw("e.user_id"),
  entityType: sql.raw("e.entity_type"),
  entityId: sql.raw("e.entity_id"),
};

/** "asset" matches asset and asset.*: a prefix is a whole segment of the kind. */
export const kindPrefix = (prefix: string) => {
  const p = prefix.replace(/\.+$/, "");
  return sql`(${e.kind} = ${p} OR (${e.kind} >= ${`${p}.`} AND ${e.kind} < ${`${p}/`}))`;
};

/** Events a non-admin may read: on an asset or group they can read, or on their own account. */
function readable(ctx: AccessContext): SQL {
  const groupCols = { path: sql.raw("rg.path"), deletedAt: sql.raw("rg.deleted_at") };
  return sql`(
    (${e.entityType} = 'asset' AND ${assetFilter(ctx, e.entityId)})
    OR (${e.entityType} = 'group' AND EXISTS (SELECT 1 FROM groups rg WHERE rg.group_id = ${e.entityId} AND ${groupFilter(ctx, groupCols)}))
    OR (${e.entityType} = 'user' AND ${e.entityId} = ${ctx.userId})
  )`;
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const holdsId = (v: unknown, shown: Set<string>): boolean =>
  typeof v === "string" ? uuid.test(v) && !shown.has(v) : Array.isArray(v) && v.some((x) => holdsId(x, shown));

/**
 * An event's details as a non-admin sees them: without the ids of other objects it names (a move's source group,
 * a created group's parent) unless the reader may see them (`shown`: those whose names they get); its names and
 * values stay.
 */
function withoutIds(data: Record<string, unknown>, shown: Set<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([, v]) => !holdsId(v, shown)));
}

/** The names column as the trigger events_names wrote it: {id: [type, name, …]}; a task is [type, num, template]. */
function parseNames(text: string | null): Map<string, EventName> {
  const out = new Map<string, EventName>();
  if (!text) return out;
  for (const [id, entry] of Object.entries(JSON.parse(text) as Record<string, unknown[]>)) {
    if (!Array.isArray(entry) || typeof entry[0] !== "string") continue;
    const [type, a, b] = entry;
    if (type === "task" && typeof a === "number" && typeof b === "string") out.set(id, { type, name: b, num: a });
    else if (type === "variant" && typeof a === "string") out.set(id, { type, name: a, ...(typeof b === "number" ? { version: b } : {}) });
    else if (typeof a === "string") out.set(id, { type, name: a });
  }
  return out;
}

/**
 * Kinds of named objects a reader of an event may see the names of without a further check: the parts of an asset
 * they read (its variants, uploads, tasks) and the catalogues every user reads (templates, tags, taxa, classes,
 * lists). Assets and groups are checked by the access engine; users, rules, workflows, storages and tokens are
 * named to admins only (a user: also to themself, and the event's actor, whose name the list shows anyway).
 */
const openTypes = new Set(["variant", "upload", "task", "task_template", "field_template", "tag", "taxon", "asset_class", "list"]);

/** Of the assets and groups named on a page, those the caller may read (one engine call for the page). */
async function readableNamed(db: Db, ctx: AccessContext, named: Map<string, EventName>[]): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const m of named) for (const [id, n] of m) if (n.type === "asset" || n.type === "group") ids.add(id);
  if (ids.size === 0) return ids;
  const objects = await resolveObjects(db, [...ids], { deleted: true });
  return new Set([...objects.values()].filter((o) => permissionsOn(ctx, o)?.includes("read")).map((o) => o.id));
}

/**
 * A share link's event as someone other than an admin or the link's creator sees it: without the recipients'
 * addresses (`email` of create/update, `to` and the error text of each mail result), which are personal data of
 * people the reader of the asset need not know. That a link was mailed, and whether it went, stays.
 */
function withoutRecipients(data: Record<string, unknown>): Record<string, unknown> {
  const { email: _email, results, ...rest } = data;
  return Array.isArray(results) ? { ...rest, results: results.map((r) => ({ ok: Boolean((r as { ok?: unknown }).ok) })) } : rest;
}

interface Row {
  rowid: number;
  event_id: string;
  kind: string;
  time: number;
  user_id: string | null;
  user_name: string | null;
  entity_id: string | null;
  entity_type: string | null;
  entity_name: string | null;
  /** A share link's creator (share-link events only): who may see its recipients. */
  link_creator: string | null;
  data: string | null;
  names: string | null;
}

export async function listEvents(db: Db, auth: AuthUser, q: EventsListBody): Promise<{ items: EventItem[]; next_cursor: string | null }> {
  const ctx = await accessContext(db, auth);
  const where: SQL[] = [];
  if (q.cursor !== undefined) where.push(sql`${e.rowid} < ${Number(q.cursor)}`);
  if (q.kinds?.length) where.push(sql`(${sql.join(q.kinds.map(kindPrefix), sql` OR `)})`);
  if (q.entity) where.push(sql`${e.entityId} = ${q.entity.id}`);
  if (q.entity?.type) where.push(sql`${e.entityType} = ${q.entity.type}`);
  if (q.user) where.push(sql`${e.userId} = ${q.user}`);
  if (q.from !== undefined) where.push(sql`${e.ctime} >= ${q.from}`);
  if (q.to !== undefined) where.push(sql`${e.ctime} <= ${q.to}`);
  if (q.asset) {
    // Everything about an asset the caller can read, wherever the event was filed (its links, its tasks).
    await requireAccess(db, auth, "read", [q.asset], { types: ["asset"] });
    where.push(sql`(${e.entityId} = ${q.asset}
      OR (${e.entityType} = 'share_link' AND ${e.entityId} IN (SELECT sl.link_id FROM share_links sl WHERE sl.asset_id = ${q.asset}))
      OR (${e.entityType} = 'task' AND ${e.entityId} IN (SELECT tk.job_id FROM tasks tk WHERE tk.asset_id = ${q.asset})))`);
  } else if (!ctx.admin) where.push(readable(ctx));
  const rows = await db.all<Row>(sql`
    SELECT e.rowid AS rowid, e.event_id, e.kind, e.ctime AS time, e.user_id, u.user_name, e.entity_id, e.entity_type,
      CASE e.entity_type
        WHEN 'asset' THEN (SELECT a.name FROM assets a WHERE a.asset_id = e.entity_id)
        WHEN 'group' THEN (SELECT g.group_name FROM groups g WHERE g.group_id = e.entity_id)
        WHEN 'user' THEN (SELECT eu.user_name FROM users eu WHERE eu.user_id = e.entity_id)
      END AS entity_name,
      CASE WHEN e.entity_type = 'share_link' THEN (SELECT sl.creator FROM share_links sl WHERE sl.link_id = e.entity_id) END AS link_creator,
      e.data, e.names
    FROM events e LEFT JOIN users u ON u.user_id = e.user_id
    WHERE ${where.length ? and(...where) : sql`1`}
    ORDER BY e.rowid DESC
    LIMIT ${q.take + 1}`);
  const page = rows.slice(0, q.take);
  const named = page.map((row) => parseNames(row.names));
  const readableIds = ctx.admin ? new Set<string>() : await readableNamed(db, ctx, named);
  /** The names this reader may see: all for admins; for others, what they may read (see openTypes). */
  const namesFor = (row: Row, all: Map<string, EventName>) => {
    if (ctx.admin) return all;
    const mayRead = (id: string, n: EventName) =>
      n.type === "asset" || n.type === "group"
        ? readableIds.has(id)
        : n.type === "user"
          ? id === ctx.userId || id === row.user_id
          : openTypes.has(n.type);
    return new Map([...all].filter(([id, n]) => mayRead(id, n)));
  };
  const shown = (row: Row, names: Map<string, EventName>) => {
    if (!row.data) return null;
    const parsed = JSON.parse(row.data) as Record<string, unknown>;
    if (ctx.admin) return parsed;
    const mine = row.entity_type === "share_link" && row.link_creator === ctx.userId;
    return withoutIds(row.entity_type === "share_link" && !mine ? withoutRecipients(parsed) : parsed, new Set(names.keys()));
  };
  return {
    // A share link's id is its secret (the URL): only admins see it in the list.
    items: page.map(({ rowid: _rowid, link_creator: _creator, data: _data, names: _names, ...row }, i) => {
      const names = namesFor(page[i], named[i]);
      return {
        ...row,
        // An object or actor deleted since keeps the name the event recorded.
        user_name: row.user_name ?? (row.user_id ? (names.get(row.user_id)?.name ?? null) : null),
        entity_id: row.entity_type === "share_link" && !ctx.admin ? null : row.entity_id,
        entity_name: row.entity_name ?? (row.entity_id ? (names.get(row.entity_id)?.name ?? null) : null),
        data: shown(page[i], names),
        names: Object.fromEntries(names),
      };
    }),
    next_cursor: rows.length > q.take ? String(page[page.length - 1].rowid) : null,
  };
}
