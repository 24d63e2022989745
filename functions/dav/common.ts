import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { covers, lockByToken, lockKey, locksAnswered, locksCovering, type IfList } from "./locks";
import { etagOf } from "./props";
import { davSegments, hrefOf, locate, type DavNode } from "./tree";
import { escapeXml } from "./xml";

/** What every WebDAV method works with: the caller, the path asked for and the If header's conditions. */
export interface DavRequest {
  db: Db;
  env: Env;
  auth: AuthUser;
  req: Request;
  segs: string[];
  key: string;
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
export async function requireIf(r: DavRequest, node: DavNode | null) {
  if (!r.ifLists) return;
  for (const list of r.ifLists) {
    let segs = r.segs;
    let target = node;
    if (list.resource) {
      const path = safePath(list.resource);
      if (!path) continue;
      segs = path;
      target = lockKey(path) === r.key ? node : (await locate(r.db, r.auth, path).catch(() => ({ node: null }))).node;
    }
    const key = lockKey(segs);
    let holds = true;
    for (const c of list.conditions) {
      let ok: boolean;
      if (c.token !== undefined) {
        const lock = await lockByToken(r.db, c.token);
        ok = Boolean(lock && covers(lock, key));
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

/** 423 unless the caller submitted the tokens of the locks on `segs` (and, for changes of membership, its parent's). */
export async function requireUnlocked(r: DavRequest, segs: string[], opts: { below?: boolean; parentToo?: boolean } = {}) {
  const locks = await locksCovering(r.db, lockKey(segs), opts);
  if (locksAnswered(locks, r.tokens, r.auth.userId)) return;
  const href = hrefOf(segs, false);
  throw davError(423, `<D:lock-token-submitted><D:href>${escapeXml(href)}</D:href></D:lock-token-submitted>`);
}

export const notFound = () => new ApiError("not_found", "Путь не найден");
export const conflict = (message: string) => new ApiError("conflict", message);
