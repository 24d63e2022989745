import { getDb } from "../lib/db";
import type { Env } from "../lib/env";
import { ApiError, errorStatus } from "../lib/errors";
import { davUser } from "./auth";
import { DavAnswer, xmlResponse, type DavRequest } from "./common";
import { lock, unlock } from "./lock-methods";
import { parseIf, scopeOf, submittedTokens, type LockScope } from "./locks";
import { getOrHead, propfind, proppatch } from "./read";
import { davSegments, locate, pathKey } from "./tree";
import { copyOrMove, del, mkcol, put } from "./write";

/**
 * WebDAV (RFC 4918, classes 1 and 2) under /dav/: groups as folders, assets as files, for mounting a
 * group as a disk (docs/decisions/036-webdav-and-disk-helper.md). Every object is reached through the
 * access engine via the same services the API uses; each method needs the right its API twin needs.
 */

const methods = ["OPTIONS", "GET", "HEAD", "PUT", "DELETE", "PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK"];
const allow = methods.join(", ");
/** The WebDAV "routes", for the authorization matrix (tests/api/authz/dav.ts). */
export const davRoutes = methods.map((m) => `${m} /dav/*`);
const realm = 'Basic realm="MAM WebDAV", charset="UTF-8"';

export const isDavPath = (pathname: string) => pathname === "/dav" || pathname.startsWith("/dav/");

export async function handleDav(req: Request, env: Env): Promise<Response> {
  try {
    return await serve(req, env);
  } catch (err) {
    return failure(err);
  }
}

async function serve(req: Request, env: Env): Promise<Response> {
  const url = new URL(req.url);
  const segs = davSegments(url.pathname);
  if (!segs) throw new DavAnswer(400);
  // OPTIONS tells nothing about the tree: clients (Windows, macOS) ask it before they authenticate.
  if (req.method === "OPTIONS") return new Response(null, { headers: { DAV: "1, 2", Allow: allow, "MS-Author-Via": "DAV" } });
  const db = getDb(env);
  const auth = await davUser(env, req);
  const ifHeader = req.headers.get("If");
  const ifLists = ifHeader === null ? null : parseIf(ifHeader);
  if (ifHeader !== null && !ifLists) throw new DavAnswer(400);
  const { node, parent, chain, throughFile } = await locate(db, auth, segs);
  if (throughFile) throw new DavAnswer(409);
  let scope: Promise<LockScope> | undefined;
  const r: DavRequest = {
    ...{ db, env, auth, req, segs, key: pathKey(segs), node, parent, chain },
    scope: () => (scope ??= scopeOf(db, node, parent)),
    ifLists,
    tokens: submittedTokens(ifLists),
  };
  switch (req.method) {
    case "PROPFIND":
      return await propfind(r, node);
    case "GET":
    case "HEAD":
      return await getOrHead(r, node);
    case "PUT":
      return await put(r, node, parent);
    case "DELETE":
      return await del(r, node, parent);
    case "MKCOL":
      return await mkcol(r, node, parent);
    case "COPY":
      return await copyOrMove(r, node, parent, false);
    case "MOVE":
      return await copyOrMove(r, node, parent, true);
    case "PROPPATCH":
      return await proppatch(r, node);
    case "LOCK":
      return await lock(r, node, parent);
    case "UNLOCK":
      return await unlock(r, node);
    default:
      return new Response(null, { status: 405, headers: { Allow: allow } });
  }
}

/** Errors as WebDAV clients read them: the status, a Russian text for people, and the auth challenge on 401. */
function failure(err: unknown): Response {
  // What the request's body has left is drained by worker.ts before this answer goes out.
  if (err instanceof DavAnswer) {
    return err.xml ? xmlResponse(err.status, err.xml, err.headers) : new Response(null, { status: err.status, headers: err.headers });
  }
  if (err instanceof ApiError) {
    const headers: Record<string, string> = { "Content-Type": "text/plain; charset=utf-8", ...err.headers };
    if (err.code === "unauthorized") headers["WWW-Authenticate"] = realm;
    return new Response(`${err.message}\n`, { status: errorStatus[err.code], headers });
  }
  console.error("webdav", err);
  return new Response("Внутренняя ошибка сервера\n", { status: 500, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}
