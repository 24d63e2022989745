import { createMiddleware } from "hono/factory";
import { withBindings } from "./config";
import type { AppEnv } from "./env";
import { ApiError } from "./errors";

/**
 * D1's Sessions API and read replicas (docs/decisions/049-read-replicas-and-libsql.md). Every API request runs
 * in one session: reads may go to a nearby replica, and the session's bookmark goes back to the client in
 * this header. A client that sends it back reads from a copy at least as new as its own last write, so a user
 * always sees what they just wrote; a client that sends none (a robot, a first visit) gets:
 * - requests that only read: "first-unconstrained" (any replica, the fastest answer);
 * - everything else: "first-primary" (a write, and the reads in the same request, see the latest data).
 */
export const BOOKMARK_HEADER = "X-D1-Bookmark";

/** What D1 hands out: four hex groups (the bookmark orders by its commit position, so later compares greater). */
const bookmarkShape = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

/** POST routes that only read: their query is in the body (search, lists by id, the events list). */
const readingPosts = new Set([
  "/api/search/query",
  "/api/search/rag",
  "/api/search/vector",
  "/api/group/preview-list",
  "/api/tags/list-by-ids",
  "/api/global-events/list",
]);

/** The request only reads (a GET, or a POST of `readingPosts`): no session write, no index catch-up after it. */
export const onlyReads = (method: string, path: string) =>
  method === "GET" || method === "HEAD" || (method === "POST" && readingPosts.has(path));

/** Where the session starts: the client's bookmark, else by what the request does. */
export function sessionStart(method: string, path: string, bookmark: string | null): D1SessionBookmark | D1SessionConstraint {
  if (bookmark !== null) return bookmark;
  return onlyReads(method, path) ? "first-unconstrained" : "first-primary";
}

export function checkedBookmark(header: string | null | undefined): string | null {
  if (header === undefined || header === null || header === "") return null;
  if (!bookmarkShape.test(header)) {
    const message = `Заголовок ${BOOKMARK_HEADER}: неверный формат закладки сеанса базы данных`;
    throw new ApiError("validation", message, [{ field: BOOKMARK_HEADER, message }]);
  }
  return header;
}

/** Hono middleware: the rest of the request sees the session as its DB binding; the answer carries the bookmark. */
export const dbSession = createMiddleware<AppEnv>(async (c, next) => {
  // Sessions are D1's: a libSQL store (functions/lib/db.ts) has its own replicas and consistency.
  if (c.env.LIBSQL_URL) return next();
  const session = c.env.DB.withSession(sessionStart(c.req.method, c.req.path, checkedBookmark(c.req.header(BOOKMARK_HEADER))));
  // A session has the binding's query methods (prepare, batch), which is all the code uses.
  c.env = withBindings(c.env, { DB: session as unknown as D1Database });
  await next();
  const bookmark = session.getBookmark();
  if (bookmark) c.header(BOOKMARK_HEADER, bookmark);
});

/** The public share page (worker.ts): it only reads, from whichever copy answers first. */
export const readingEnv = <E extends { DB: D1Database; LIBSQL_URL?: string }>(env: E): E =>
  env.LIBSQL_URL ? env : withBindings(env, { DB: env.DB.withSession("first-unconstrained") as unknown as D1Database } as Partial<E>);
