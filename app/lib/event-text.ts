import type { EventItem, EventName } from "../../shared/events/schemas";
import { ru } from "../i18n/ru";
import { formatDateTime, formatSize } from "./format";

/**
 * An event in words (docs/decisions/057-readable-history.md): what happened, to what, by whom, and its details as
 * a Russian phrase, with every object it names by name, linked where the reader may open it. Pure: the journal and
 * an asset's «История» render its parts; the unit tests read them.
 */

const t = ru.events;
const p = t.phrase;

/** A named object: its words and, when the reader may open it, where. */
export interface Ref {
  text: string;
  href?: string;
}
/** One piece of a phrase: plain words or a named object. */
export type Part = string | Ref;

export interface EventText {
  /** What happened ("Загрузка завершена"); an unknown kind stays as it is. */
  action: string;
  /** Who did it; null: the system (a queue, the cron, the transcoder). */
  actor: Ref | null;
  /** What it happened to, if the reader may know it. */
  object: Ref | null;
  /** The details, a phrase of parts ("загружена версия 2, 3,40 МБ"); empty when there is nothing to add. */
  details: Part[];
}

export interface Reader {
  /** Admins open users, storages and the other admin screens. */
  admin: boolean;
}

type Event = Pick<EventItem, "kind" | "user_id" | "user_name" | "entity_type" | "entity_id" | "entity_name" | "data"> & {
  names?: EventItem["names"];
};

/** Where an object opens: only where the reader may go (the admin area is for admins). */
export function hrefOf(type: string | null | undefined, id: string | null | undefined, reader: Reader): string | undefined {
  if (!id) return undefined;
  switch (type) {
    case "asset":
      return `/asset/${id}`;
    case "group":
      return `/mam/${id}`;
    case "task":
      return `/jobs/${id}`;
    case "workflow":
      return `/automations/${id}`;
    case "user":
      return reader.admin ? `/admin/user/${id}` : undefined;
    case "storage":
      return reader.admin ? "/admin/storages" : undefined;
    case "field_template":
      return reader.admin ? `/admin/metadata/${id}` : undefined;
    default:
      return undefined;
  }
}

/** An object's words: "задача №17 · Превью" for a task, the name for the rest. */
export function nameText(n: EventName): string {
  if (n.type === "task" && n.num !== undefined) return t.task(n.num, n.name);
  if (n.type === "variant" && n.version !== undefined) return `${n.name} (${p.version(n.version)})`;
  return n.name;
}

const quoted = (s: string) => `«${s}»`;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** Kinds whose object is gone once they happen: it is named, never linked. */
const ending = /\.(delete|deleted|purged|drop-empty|token_revoked|app_password_revoked)$/;

/** Joins phrases ("a, b, c") into one list of parts. */
function join(groups: Part[][], sep = ", "): Part[] {
  const out: Part[] = [];
  for (const g of groups.filter((x) => x.length > 0)) {
    if (out.length) out.push(sep);
    out.push(...g);
  }
  return out;
}

/** Up to `max` named objects, then "и ещё N". */
function listOf(refs: Ref[], max = 5): Part[] {
  const shown = join(refs.slice(0, max).map((r) => [r]));
  return refs.length > max ? [...shown, ` ${p.more(refs.length - max)}`] : shown;
}

const rightsText = (acl: unknown) =>
  Array.isArray(acl)
    ? acl.map((a) => (ru.admin.rules.permissions as Record<string, string>)[String(a)]?.toLowerCase() ?? String(a)).join(", ")
    : "";

/** A value of a generic detail: names for ids, words for the rest. */
function valueParts(v: unknown, named: (id: string) => Ref | null): Part[] {
  if (typeof v === "string") return [named(v) ?? v];
  if (typeof v === "number") return [String(v).replace(".", ",")];
  if (typeof v === "boolean") return [v ? p.yes : p.no];
  if (Array.isArray(v)) return join(v.map((x) => valueParts(x, named)));
  return [];
}

/** Builds the words of one event for one reader. */
export function describeEvent(e: Event, reader: Reader): EventText {
  const names = e.names ?? {};
  const data = e.data ?? {};
  /** A named object, by id, if the reader got its name. */
  const named = (id: unknown, link = true): Ref | null => {
    if (typeof id !== "string") return null;
    const n = names[id];
    if (!n) return null;
    const href = link ? hrefOf(n.type, id, reader) : undefined;
    return href ? { text: nameText(n), href } : { text: nameText(n) };
  };
  const gone = ending.test(e.kind);

  const actor: Ref | null = e.user_id
    ? (() => {
        const text = e.user_name ?? (names[e.user_id] ? nameText(names[e.user_id]) : null);
        if (!text) return null;
        const href = hrefOf("user", e.user_id, reader);
        return href ? { text, href } : { text };
      })()
    : null;

  const object: Ref | null = (() => {
    const own = e.entity_id ? names[e.entity_id] : undefined;
    const text = own ? nameText(own) : e.entity_name;
    if (!text) return null;
    const href = gone ? undefined : hrefOf(e.entity_type, e.entity_id, reader);
    return href ? { text, href } : { text };
  })();

  const size = num(data.size);
  const version = num(data.version);
  let details: Part[];
  switch (e.kind) {
    case "upload.complete":
      details = join([version !== undefined ? [p.versionUploaded(version)] : [], size !== undefined ? [formatSize(size)] : []]);
      break;
    case "upload.start":
      details = join([
        str(data.name) ? [quoted(String(data.name))] : [],
        version !== undefined ? [p.uploadStarted(version)] : [],
        size !== undefined ? [formatSize(size)] : [],
      ]);
      break;
    case "upload.abort": {
      const up = named(data.upload_id, false);
      details = up ? [quoted(up.text)] : [];
      break;
    }
    case "version.create":
      details = version !== undefined ? [p.version(version)] : [];
      break;
    case "version.drop-empty":
      details = Array.isArray(data.versions) ? [`${p.versions}: ${data.versions.join(", ")}`] : [];
      break;
    case "variant.preview":
      details = join([[p.preview], size !== undefined ? [formatSize(size)] : []]);
      break;
    case "variant.tech-props":
      details = Array.isArray(data.keys) ? [`${p.keys}: ${data.keys.join(", ")}`] : [];
      break;
    case "task.status": {
      const from = str(data.from);
      const to = str(data.to);
      const command = str(data.command);
      details = join([
        to ? [`${p.status}: ${from ? `${t.taskStatus[from] ?? from} → ` : ""}${t.taskStatus[to] ?? to}`] : [],
        command ? [p.by(t.taskCommands[command] ?? command)] : [],
      ]);
      break;
    }
    case "task.priority":
      details = [`${p.priority}: ${num(data.from) ?? "?"} → ${num(data.to) ?? "?"}`];
      break;
    case "task.create": {
      const asset = named(data.asset);
      const status = str(data.status);
      details = join([asset ? [asset] : [], status ? [`${p.status}: ${t.taskStatus[status] ?? status}`] : []]);
      break;
    }
    case "asset.create": {
      const group = named(data.group);
      details = group ? [`${p.inGroup} `, group] : [];
      break;
    }
    case "asset.copy": {
      const from = named(data.from);
      const group = named(data.group);
      details = join([from ? [`${p.copyOf} `, from] : [], group ? [`${p.inGroup} `, group] : []]);
      break;
    }
    case "asset.update":
    case "group.updated": {
      const name = str(data.asset_name) ?? str(data.group_name);
      const cls = named(data.asset_class);
      details = join([
        name ? [`${p.renamed} ${quoted(name)}`] : [],
        str(data.asset_mime) ? [`${p.type}: ${data.asset_mime}`] : [],
        cls ? [`${p.class}: `, cls] : data.asset_class === null ? [`${p.class}: ${p.none}`] : [],
        named(data.default_storage) ? [`${p.storage}: `, named(data.default_storage) as Ref] : [],
      ]);
      break;
    }
    case "asset.storage": {
      const st = named(data.storage_id);
      details = st ? [`${p.storage}: `, st] : [];
      break;
    }
    case "group.created": {
      const parent = named(data.parent);
      details = parent ? [`${p.inGroup} `, parent] : [];
      break;
    }
    case "group.members_added":
    case "group.members_removed":
    case "group.members_moved": {
      const members = Array.isArray(data.members)
        ? data.members.map((m) => named(isRecord(m) ? m.el_id : m)).filter((r): r is Ref => r !== null)
        : [];
      const from = e.kind === "group.members_moved" ? named(data.from) : null;
      details = from ? [`${p.from} `, from, ...(members.length ? [": ", ...listOf(members)] : [])] : listOf(members);
      break;
    }
    case "field.create":
    case "field.update":
    case "field.delete": {
      const field = named(data.def_id);
      details = field ? [`${p.field} `, field] : [];
      break;
    }
    case "acl.created":
    case "acl.updated":
    case "acl.deleted": {
      const subj = isRecord(data.subj) ? named(data.subj.id) : named(data.rule_id, false);
      details = join([subj ? [`${p.forSubject} `, subj] : [], data.acl ? [`${p.rights}: ${rightsText(data.acl)}`] : []]);
      break;
    }
    case "tag.attach":
    case "tag.detach": {
      const tags = Array.isArray(data.tag_ids) ? data.tag_ids.map((id) => named(id)).filter((r): r is Ref => r !== null) : [];
      details = tags.length ? [`${p.tags}: `, ...listOf(tags)] : [];
      break;
    }
    case "taxon.member-add":
    case "taxon.member-del": {
      const taxon = named(data.taxon_id);
      details = taxon ? [`${p.taxon} `, taxon] : [];
      break;
    }
    case "user.created":
      details = str(data.login) ? [`${p.login} ${data.login}`] : [];
      break;
    case "user.updated":
      details = join([
        Array.isArray(data.fields) && data.fields.length ? [`${p.changed}: ${data.fields.join(", ")}`] : [],
        data.sessions_ended === true ? [p.sessionsEnded] : [],
      ]);
      break;
    case "user.token_issued":
    case "user.token_revoked": {
      const token = str(data.name) ?? named(data.token_id, false)?.text;
      details = token ? [`${p.token} ${quoted(token)}`] : [];
      break;
    }
    case "user.membership_set": {
      const teams = Array.isArray(data.groups) ? data.groups.map((id) => named(id)).filter((r): r is Ref => r !== null) : [];
      details = teams.length ? [`${p.teams}: `, ...listOf(teams)] : [];
      break;
    }
    case "auth.login":
      details = join([
        str(data.method) ? [t.methods[String(data.method)] ?? String(data.method)] : [],
        str(data.ip) ? [`${p.ip} ${data.ip}`] : [],
      ]);
      break;
    case "auth.login_failed":
      details = join([
        str(data.login) ? [`${p.login} ${data.login}`] : [],
        str(data.via) ? [t.methods[String(data.via)] ?? String(data.via)] : [],
        str(data.ip) ? [`${p.ip} ${data.ip}`] : [],
      ]);
      break;
    case "share-link.create":
    case "share-link.update": {
      const range = Array.isArray(data.time_range) ? data.time_range : [];
      details = join([
        data.acl ? [`${p.rights}: ${rightsText(data.acl)}`] : [],
        num(range[1]) ? [`${p.until} ${formatDateTime(num(range[1]))}`] : [],
        data.password === true ? [p.password] : [],
        num(data.download_limit) ? [p.downloads(num(data.download_limit) as number)] : [],
      ]);
      break;
    }
    case "share-link.email":
    case "shop.order.email": {
      const results = Array.isArray(data.results) ? data.results : [];
      details = results.length ? [p.sent(results.filter((r) => isRecord(r) && r.ok).length, results.length)] : [];
      break;
    }
    case "workflow.setup":
      details = join([
        str(data.trigger) ? [`${p.trigger} ${data.trigger}`] : [],
        Array.isArray(data.steps) && data.steps.length ? [`${p.steps}: ${data.steps.join(", ")}`] : [],
      ]);
      break;
    case "workflow.step":
      details = join([
        num(data.step) !== undefined ? [p.step(num(data.step) as number)] : [],
        str(data.action) ? [String(data.action)] : [],
        str(data.status) ? [String(data.status)] : [],
      ]);
      break;
    default:
      details = generic(data, named);
  }
  return { action: t.kinds[e.kind] ?? e.kind, actor, object, details };
}

/** Keys that are plumbing, never worth a word (the cause of an automation's own change is shown by its name). */
const plumbing = new Set(["udwf", "upload_id", "rule_id", "token_id", "run", "event", "id"]);

/**
 * Any other event: its simple values as "ключ: значение", ids replaced by the names the reader got (an id without
 * a name is left out: it says nothing to a person); nested values stay in the JSON on demand.
 */
function generic(data: Record<string, unknown>, named: (id: string) => Ref | null): Part[] {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  const groups: Part[][] = [];
  for (const [key, v] of Object.entries(data)) {
    if (plumbing.has(key) || isRecord(v)) continue;
    if (typeof v === "string" && uuid.test(v) && !named(v)) continue;
    if (Array.isArray(v) && v.some((x) => isRecord(x) || Array.isArray(x))) continue;
    const parts = valueParts(Array.isArray(v) ? v.filter((x) => !(typeof x === "string" && uuid.test(x) && !named(x))) : v, (id) =>
      uuid.test(id) ? named(id) : null,
    );
    if (parts.length) groups.push([`${key}: `, ...parts]);
  }
  return join(groups);
}

/** The phrase as plain text (tests, titles). */
export const partsText = (parts: Part[]) => parts.map((x) => (typeof x === "string" ? x : x.text)).join("");
