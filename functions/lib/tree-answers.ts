import { sql, type SQLWrapper } from "drizzle-orm";
import type { Context, TypedResponse } from "hono";
import type { Db } from "./db";
import { literal } from "./sql";

/**
 * Long answers about the tree of groups (subtree/{id}: up to every group below one), built as one JSON
 * text by SQLite, gzip-compressed once and kept in the isolate while the tree stays as it was.
 *
 * Why it is safe: an entry is keyed by the text and parameters of the statement that builds it, and that
 * statement reads only the `groups` table — everything else the answer depends on (the caller's grants,
 * denies and chroot, the subtree, depth, page bounds) is written into its WHERE. Triggers give
 * `tree_version` a new random number on every write to what such a statement reads (migration
 * 0008_tree_version), and an entry is stored under the version read by the statement that built it. So an
 * entry is served only while running its statement again would give the same text. A statement that
 * reads another table may use this only once that table's writes change `tree_version` too.
 * Figures: docs/decisions/020-tree-answers.md.
 */

/** What the isolate may hold; the least recently served entries go first. */
const HELD_BYTES = 32 * 1024 * 1024;
const entries = new Map<string, { version: number; gzip: ArrayBuffer }>();
let heldBytes = 0;

/** The tree's version now: read beside the request's access checks, so a served entry costs no extra round trip. */
export async function treeVersion(db: Db): Promise<number> {
  const row = await db.get<{ v: number }>(sql`SELECT v FROM tree_version WHERE id = 1`);
  return row.v;
}

type Statement = SQLWrapper & { toSQL(): { sql: string; params: unknown[] } };

/**
 * The rows of `query` as a gzip-compressed JSON array of objects with `keys` (the query's column names,
 * in the order the objects list them), from the isolate when the tree is still at `version`. The
 * query's ORDER BY holds: SQLite never flattens an ordered subquery into an aggregate query.
 */
export async function treeJsonGzip(db: Db, version: number, query: Statement, keys: readonly string[]): Promise<ArrayBuffer> {
  const { sql: text, params } = query.toSQL();
  const key = `${text}\n${JSON.stringify(params)}`;
  const held = entries.get(key);
  if (held?.version === version) {
    entries.delete(key);
    entries.set(key, held);
    return held.gzip;
  }
  const fields = sql.join(
    keys.map((k) => sql`${literal(k)}, r.${sql.identifier(k)}`),
    sql`, `,
  );
  const row = await db.get<{ version: number; json: string }>(
    sql`SELECT (SELECT v FROM tree_version WHERE id = 1) AS version, json_group_array(json_object(${fields})) AS json FROM (${query}) r`,
  );
  const gzip = await new Response(new Response(row.json).body!.pipeThrough(new CompressionStream("gzip"))).arrayBuffer();
  hold(key, row.version, gzip);
  return gzip;
}

function hold(key: string, version: number, gzip: ArrayBuffer) {
  const old = entries.get(key);
  if (old) heldBytes -= old.gzip.byteLength;
  entries.delete(key);
  if (gzip.byteLength > HELD_BYTES / 4) return;
  entries.set(key, { version, gzip });
  heldBytes += gzip.byteLength;
  for (const [k, e] of entries) {
    if (heldBytes <= HELD_BYTES) break;
    entries.delete(k);
    heldBytes -= e.gzip.byteLength;
  }
}

/**
 * A JSON answer that is already gzip-compressed. A client that takes gzip (browsers, fetch, curl
 * --compressed) gets the bytes as they are; any other gets them decoded here, since a client that sends no
 * Accept-Encoding at all (curl, plain scripts) would otherwise be handed gzip by Miniflare. Via `c.body`, so
 * the middleware's headers (X-Request-Id) stay. `T` is the JSON's shape (the route's schema), which the caller
 * vouches for: the text was built by SQLite, so the type is attached here rather than checked.
 */
export function gzipJsonResponse<T>(c: Context, gzip: ArrayBuffer): Response & TypedResponse<T, 200, "json"> {
  const typed = (res: Response) => res as Response & TypedResponse<T, 200, "json">;
  if (!acceptsGzip(c))
    return typed(
      c.body(new Response(gzip).body!.pipeThrough(new DecompressionStream("gzip")), 200, { "Content-Type": "application/json" }),
    );
  const { headers } = c.body(null, 200, { "Content-Type": "application/json", "Content-Encoding": "gzip" });
  return typed(new Response(gzip, { status: 200, headers, encodeBody: "manual" }));
}

/**
 * The client's Accept-Encoding lists gzip (or `*`) with a weight above 0. Cloudflare and Miniflare rewrite
 * the header the Worker sees and keep the client's own in `cf.clientAcceptEncoding`.
 */
function acceptsGzip(c: Context) {
  const cf = c.req.raw.cf as IncomingRequestCfProperties | undefined;
  const header = cf?.clientAcceptEncoding ?? c.req.header("Accept-Encoding") ?? "";
  const weights = new Map(
    header.split(",").map((part) => {
      const [coding, ...params] = part.trim().toLowerCase().split(";");
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return [coding.trim(), q === undefined ? 1 : Number(q)] as const;
    }),
  );
  return (weights.get("gzip") ?? weights.get("*") ?? 0) > 0;
}
