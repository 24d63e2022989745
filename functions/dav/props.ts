import { and, eq, inArray } from "drizzle-orm";
import { davProps, type DavLock } from "../../db/schema";
import type { Db } from "../lib/db";
import { idList } from "../lib/sql";
import { containerId, type DavNode } from "./tree";
import { DAV, escapeXml, standalone, type XmlElement } from "./xml";

/** Live and dead properties as PROPFIND returns them (RFC 4918 section 15). */

/** A file's entity tag: the stored hash or storage ETag of its content (quoted once), the same GET sends. */
export const etagOf = (n: DavNode) =>
  n.kind === "asset" ? (n.asset.hash ? `"${n.asset.hash.replace(/"/g, "")}"` : `"empty-${n.asset.id}"`) : null;

export const entityIdOf = (n: DavNode) => (n.kind === "root" ? containerId(n) : n.kind === "group" ? n.id : n.asset.id);

const httpDate = (s: number) => new Date(s * 1000).toUTCString();
const isoDate = (s: number) => new Date(s * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");

export const liveNames = [
  "displayname",
  "resourcetype",
  "getcontentlength",
  "getcontenttype",
  "getetag",
  "getlastmodified",
  "creationdate",
  "supportedlock",
  "lockdiscovery",
] as const;

/**
 * A lock as lockdiscovery shows it. Its owner text and token are shown to the lock's holder and to admins
 * only: the owner text is whatever the client wrote (often a name or an e-mail address), and both are
 * optional in an activelock (RFC 4918 section 14.1), so other callers learn that the object is locked,
 * how and for how long, and nothing about who holds it.
 */
export function activeLockXml(l: DavLock, href: string, viewer: { userId: string; isAdmin: boolean }) {
  const left = Math.max(0, l.expiresAt - Math.floor(Date.now() / 1000));
  const reveal = l.userId === viewer.userId || viewer.isAdmin;
  const owner = reveal && l.ownerXml ? `<D:owner>${l.ownerXml}</D:owner>` : "";
  const token = reveal ? `<D:locktoken><D:href>${escapeXml(l.token)}</D:href></D:locktoken>` : "";
  return `<D:activelock><D:locktype><D:write/></D:locktype><D:lockscope><D:${l.shared ? "shared" : "exclusive"}/></D:lockscope><D:depth>${l.depth === -1 ? "infinity" : "0"}</D:depth>${owner}<D:timeout>Second-${left}</D:timeout>${token}<D:lockroot><D:href>${escapeXml(href)}</D:href></D:lockroot></D:activelock>`;
}

/** A live property's value XML, or undefined when the node has no such property. */
export function liveValue(
  n: DavNode,
  name: string,
  locks: DavLock[],
  lockHref: (l: DavLock) => string,
  viewer: { userId: string; isAdmin: boolean },
): string | undefined {
  const file = n.kind === "asset" ? n.asset : null;
  const times = n.kind === "group" ? n : file;
  switch (name) {
    case "displayname":
      return n.kind === "root" ? "" : escapeXml(n.name);
    case "resourcetype":
      return file ? "" : "<D:collection/>";
    case "getcontentlength":
      return file ? String(file.size ?? 0) : undefined;
    case "getcontenttype":
      return file ? escapeXml(file.mime) : undefined;
    case "getetag":
      return etagOf(n) ? escapeXml(etagOf(n)!) : undefined;
    case "getlastmodified":
      return times ? httpDate(times.mtime) : undefined;
    case "creationdate":
      return times ? isoDate(times.ctime) : undefined;
    case "supportedlock":
      return "<D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry><D:lockentry><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>";
    case "lockdiscovery":
      return locks.map((l) => activeLockXml(l, lockHref(l), viewer)).join("");
  }
  return undefined;
}

export type DeadProp = { ns: string; name: string; xml: string };

/** Dead properties of many objects in one query. */
export async function deadProps(db: Db, ids: string[]): Promise<Map<string, DeadProp[]>> {
  const out = new Map<string, DeadProp[]>();
  if (ids.length === 0) return out;
  // A statement has a length limit: a 10,000-file listing asks in chunks, in one batch (one round trip).
  const chunks = Array.from({ length: Math.ceil(ids.length / 500) }, (_, i) => ids.slice(i * 500, i * 500 + 500));
  const [first, ...rest] = chunks.map((c) =>
    db
      .select()
      .from(davProps)
      .where(inArray(davProps.entityId, idList(c))),
  );
  const rows = (await db.batch([first, ...rest])).flat();
  for (const r of rows) out.set(r.entityId, [...(out.get(r.entityId) ?? []), { ns: r.ns, name: r.name, xml: r.xml }]);
  return out;
}

/** A PROPPATCH instruction list in document order: set (with the element to store) or remove. */
export function patchInstructions(update: XmlElement) {
  const out: { op: "set" | "remove"; prop: XmlElement }[] = [];
  for (const action of update.children) {
    if (action.ns !== DAV || (action.name !== "set" && action.name !== "remove")) continue;
    for (const propEl of action.children.filter((c) => c.ns === DAV && c.name === "prop")) {
      for (const p of propEl.children) out.push({ op: action.name as "set" | "remove", prop: p });
    }
  }
  return out;
}

/** Applies a PROPPATCH (all or nothing, one batch). */
export async function applyPatch(db: Db, entityId: string, ops: { op: "set" | "remove"; prop: XmlElement }[]) {
  const statements = ops.map(({ op, prop }) =>
    op === "set"
      ? db
          .insert(davProps)
          .values({ entityId, ns: prop.ns, name: prop.name, xml: standalone(prop) })
          .onConflictDoUpdate({ target: [davProps.entityId, davProps.ns, davProps.name], set: { xml: standalone(prop) } })
      : db.delete(davProps).where(and(eq(davProps.entityId, entityId), eq(davProps.ns, prop.ns), eq(davProps.name, prop.name))),
  );
  if (statements.length) await db.batch(statements as [(typeof statements)[number], ...(typeof statements)[number][]]);
}

/** Dead properties follow a copy. */
export async function copyProps(db: Db, fromId: string, toId: string) {
  const rows = await db.select().from(davProps).where(eq(davProps.entityId, fromId));
  if (rows.length)
    await db
      .insert(davProps)
      .values(rows.map((r) => ({ ...r, entityId: toId })))
      .onConflictDoNothing();
}

export const dropProps = (db: Db, ids: string[]) => db.delete(davProps).where(inArray(davProps.entityId, idList(ids)));

/** The element name with a prefix declared on it, for a property in a response. */
export function propTag(ns: string, name: string, inner?: string) {
  if (ns === DAV) return inner === undefined || inner === "" ? `<D:${name}/>` : `<D:${name}>${inner}</D:${name}>`;
  const decl = ns ? ` xmlns:X="${escapeXml(ns)}"` : ' xmlns=""';
  const tag = ns ? `X:${name}` : name;
  return inner === undefined || inner === "" ? `<${tag}${decl}/>` : `<${tag}${decl}>${inner}</${tag}>`;
}
