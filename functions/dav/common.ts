import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { readBoundedText } from "../lib/bodies";
import { ApiError } from "../lib/errors";
import { covers, lockByToken, locksAnswered, locksCovering, scopeOf, type IfList, type LockScope } from "./locks";
import { etagOf } from "./props";
import { davSegments, hrefOf, locate, pathKey, type AssetNode, type Container, type DavNode, type GroupNode } from "./tree";
import { escapeXml, parseXml, XmlError, type XmlElement } from "./xml";

/** What every WebDAV method works with: the caller, the path asked for and the If header's conditions. */
export interface DavRequest {
  db: Db;
  env: Env;
  auth: AuthUser;
  req: Request;
  segs: string[];
  /** The path as names compare, for telling two paths of this caller's tree apart (locks never use it). */
  key: string;
  /** What the path names: the object (null for an unmapped name), its collection, and the objects along the way. */
  node: DavNode | null;
  parent: Container | null;
  chain: (GroupNode | AssetNode)[];
  /** The locks' view of the path's object (read once, on first use). */
  scope: () => Promise<LockScope>;
  ifLists: IfList[] | null;
  tokens: Set<string>;
}

/** A WebDAV answer with a status and optional XML body. */
export class DavAnswer extends Error {
  constructor(
    readonly status: number,
    readonly xml?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(`DAV ${status}`);
  }
}

export const xmlResponse = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(`<?xml version="1.0" encoding="utf-8"?>\n${body}`, {
    status,
    headers: { "Content-Type": "application/xml; charset=utf-8", ...headers },
  });

export const davError = (status: number, condition: string) => new DavAnswer(status, `<D:error xmlns:D="DAV:">${condition}</D:error>`);

export const statusLine = (code: number) => {
  const text: Record<number, string> = {
    200: "OK",
    403: "Forbidden",
    404: "Not Found",
    409: "Conflict",
    424: "Failed Dependency",
    423: "Locked",
  };
  return `HTTP/1.1 ${code} ${text[code] ?? ""}`.trim();
};

const stripWeak = (t: string) => t.trim().replace(/^W\//, "");

/**
 * Evaluates the If header (RFC 4918 section 10.4): true when any list holds. A state token holds when
 * it is a live lock covering that resource; an entity tag when it is the resource's current one.
 */
export async function requireIf(r: DavRequest) {
  if (!r.ifLists) return;
  for (const list of r.ifLists) {
    let target = r.node;
    let scope = r.scope;
    if (list.resource) {
      const path = safePath(list.resource);
      if (!path) continue;
      if (pathKey(path) !== r.key) {
        const at = await locate(r.db, r.auth, path).catch(() => null);
        target = at?.node ?? null;
        scope = () => scopeOf(r.db, target, at?.parent ?? null);
      }
    }
    let holds = true;
    for (const c of list.conditions) {
      let ok: boolean;
      if (c.token !== undefined) {
        const lock = await lockByToken(r.db, c.token);
        ok = Boolean(lock && covers(lock, await scope()));
      } else {
        const etag = target ? etagOf(target) : null;
        ok = etag !== null && stripWeak(etag) === stripWeak(c.etag ?? "");
      }
      if (c.not) ok = !ok;
      if (!ok) {
        holds = false;
        break;
      }
    }
    if (holds) return;
  }
  throw new DavAnswer(412);
}

/** A path of segments from an href (absolute URL or path); null when outside /dav/. */
export function safePath(href: string): string[] | null {
  try {
    return davSegments(new URL(href, "http://x").pathname);
  } catch {
    return null;
  }
}

/** A place in the caller's tree: the path, what it names (null for an unmapped name) and its collection. */
export interface Place {
  segs: string[];
  node: DavNode | null;
  parent: Container | null;
}

/**
 * 423 unless the caller submitted the tokens of the locks on the object at `at` (and, for changes of
 * membership, its collection's; with `below`, those of everything under a group).
 */
export async function requireUnlocked(r: DavRequest, at: Place, opts: { below?: boolean; parentToo?: boolean } = {}) {
  const scope = at.segs === r.segs ? await r.scope() : await scopeOf(r.db, at.node, at.parent);
  const locks = await locksCovering(r.db, scope, {
    parentId: opts.parentToo && at.parent?.kind === "group" ? at.parent.id : null,
    belowGroup: opts.below && at.node?.kind === "group" ? at.node.id : null,
  });
  if (locksAnswered(locks, r.tokens, r.auth.userId)) return;
  const href = hrefOf(at.segs, false);
  throw davError(423, `<D:lock-token-submitted><D:href>${escapeXml(href)}</D:href></D:lock-token-submitted>`);
}

/** A WebDAV request body (PROPFIND, PROPPATCH, LOCK) is at most this many bytes: 413 past it. */
export const maxXmlBody = 1024 * 1024;
/** How many properties one PROPFIND asks for or one PROPPATCH changes: 400 past it. */
export const maxProps = 1000;

/**
 * A request's XML body, or null when it is empty. Bounded before it is parsed: over `maxXmlBody` bytes
 * answers 413 (what is left of the body is drained by worker.ts), not well-formed or nested deeper than
 * the reader allows answers 400.
 */
export async function xmlBody(req: Request): Promise<XmlElement | null> {
  const text = await readBoundedText(req, maxXmlBody, () => new DavAnswer(413));
  if (!text.trim()) return null;
  try {
    return parseXml(text);
  } catch (err) {
    if (err instanceof XmlError) throw new DavAnswer(400);
    throw err;
  }
}

/** 400 for a request naming more than `maxProps` properties. */
export function requirePropCount(n: number) {
  if (n > maxProps) throw new DavAnswer(400);
}

export const notFound = () => new ApiError("not_found", "Путь не найден");
export const conflict = (message: string) => new ApiError("conflict", message);
