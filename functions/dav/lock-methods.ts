import { and, eq } from "drizzle-orm";
import { davLocks } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { requireAccess, requireOwned } from "../lib/access";
import { ApiError } from "../lib/errors";
import { createWithContent } from "./content";
import { DavAnswer, conflict, davError, notFound, requireIf, xmlBody, xmlResponse, type DavRequest } from "./common";
import { covers, lockByToken, locksCovering, newLock, parseTimeout } from "./locks";
import { mimeFor } from "./mime";
import { activeLockXml, entityIdOf } from "./props";
import { hrefOf, type Container, type DavNode } from "./tree";
import { DAV, child } from "./xml";

/** LOCK (new or refresh) and UNLOCK, RFC 4918 sections 9.10-9.11. */

const lockAnswer = (r: DavRequest, status: number, lock: Parameters<typeof activeLockXml>[0], href: string) =>
  xmlResponse(status, `<D:prop xmlns:D="DAV:"><D:lockdiscovery>${activeLockXml(lock, href, r.auth)}</D:lockdiscovery></D:prop>`, {
    "Lock-Token": `<${lock.token}>`,
  });

export async function lock(r: DavRequest, node: DavNode | null, parent: Container | null) {
  const info = await xmlBody(r.req);
  const href = hrefOf(r.segs, node?.kind !== "asset" && node !== null);
  const timeout = parseTimeout(r.req.headers.get("Timeout"));
  if (!info) return refresh(r, node, href, timeout);
  if (info.ns !== DAV || info.name !== "lockinfo") throw new DavAnswer(400);
  const scope = child(info, DAV, "lockscope");
  const shared = Boolean(scope && child(scope, DAV, "shared"));
  if (!scope || (!shared && !child(scope, DAV, "exclusive"))) throw new DavAnswer(400);
  const owner = child(info, DAV, "owner");
  const ownerXml = owner ? owner.raw.replace(/^<[^>]*>/, "").replace(/<\/[^>]*>$/, "") : "";
  const depthHeader = r.req.headers.get("Depth") ?? "infinity";
  if (depthHeader !== "0" && depthHeader !== "infinity") throw new DavAnswer(400);
  const depth = depthHeader === "0" ? 0 : -1;

  if (node?.kind === "root") throw new DavAnswer(403);
  if (node) await requireAccess(r.db, r.auth, "update", [entityIdOf(node)]);
  else if (!parent) throw conflict("Нет такой папки");
  else if (parent.kind === "root") throw new DavAnswer(403);
  await requireIf(r);
  const existing = await locksCovering(r.db, await r.scope(), { belowGroup: depth === -1 && node?.kind === "group" ? node.id : null });
  if (existing.some((l) => !l.shared) || (!shared && existing.length)) throw davError(423, "<D:no-conflicting-lock/>");

  let status = 200;
  let entityId = node ? entityIdOf(node) : null;
  if (!node && parent?.kind === "group") {
    // A LOCK on an unmapped name makes an empty file there (RFC 4918 section 7.3), and the lock is on that file.
    entityId = await createWithContent(
      r.db,
      r.env,
      r.auth,
      { groupId: parent.id, name: r.segs.at(-1)!, mime: mimeFor(null, r.segs.at(-1)!) },
      null,
      null,
    );
    status = 201;
  }
  const row = newLock(entityId!, depth, shared, ownerXml, r.auth.userId, timeout);
  await r.db.insert(davLocks).values(row);
  return lockAnswer(r, status, row, href);
}

async function refresh(r: DavRequest, node: DavNode | null, href: string, timeout: number) {
  if (!node) throw notFound();
  for (const token of r.tokens) {
    const held = await lockByToken(r.db, token);
    if (!held || !covers(held, await r.scope()) || held.userId !== r.auth.userId) continue;
    const expiresAt = nowSeconds() + timeout;
    await r.db.update(davLocks).set({ expiresAt, timeoutSeconds: timeout }).where(eq(davLocks.token, token));
    return lockAnswer(r, 200, { ...held, expiresAt, timeoutSeconds: timeout }, href);
  }
  throw new DavAnswer(412);
}

/**
 * Only the lock's holder (or an admin) lifts it: the engine judges the lock as an owned object. The lock is known to
 * exist by then, so the engine's not_found is WebDAV's 403 here.
 */
async function mayLift(r: DavRequest, token: string) {
  try {
    await requireOwned(r.db, r.auth, "delete", "davLock", [token]);
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.code === "not_found") return false;
    throw err;
  }
}

export async function unlock(r: DavRequest, node: DavNode | null) {
  const token = /^<(.+)>$/.exec((r.req.headers.get("Lock-Token") ?? "").trim())?.[1];
  if (!token) throw new DavAnswer(400);
  if (!node) throw notFound();
  const held = await lockByToken(r.db, token);
  if (!held || !covers(held, await r.scope())) throw davError(409, "<D:lock-token-matches-request-uri/>");
  if (!(await mayLift(r, token))) throw new DavAnswer(403);
  await r.db.delete(davLocks).where(and(eq(davLocks.token, token)));
  return new Response(null, { status: 204 });
}
