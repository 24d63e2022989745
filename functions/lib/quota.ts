import { eq, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { users } from "../../db/schema";
import { configOf, envProblems } from "./config";
import type { Db } from "./db";
import type { Env } from "./env";
import { ApiError } from "./errors";
import { literal } from "./sql";

/**
 * The per-user upload quota (docs/decisions/024-placing-rights-transcoder-quota.md). What counts: every
 * stored variant recorded under the user (what they uploaded or copied, and the renditions of tasks they
 * own) plus the announced size of their unfinished uploads, so parallel starts see each other. Both sums
 * come from covering indexes (variants_user_size_idx, uploads_user_state_idx). Previews are not counted.
 */

/**
 * DEFAULT_QUOTA_BYTES: the limit of users without one of their own; unset or empty = unlimited. A malformed one
 * refuses (the API refuses everything then; WebDAV uploads reach here without that check) rather than allow any size.
 */
export function defaultQuota(env: Pick<Env, "DEFAULT_QUOTA_BYTES">): number | null {
  if (envProblems(env).some((p) => p.variable === "DEFAULT_QUOTA_BYTES"))
    throw new ApiError("internal", "Квота по умолчанию (DEFAULT_QUOTA_BYTES) задана неверно: нужно целое число байт");
  return configOf(env).DEFAULT_QUOTA_BYTES;
}

/** Bytes counted against the quota of the user in `user` (a column or a literal): no bound parameters, so it also fits raw batch statements. */
export const usedBytes = (
  user: SQLWrapper,
): SQL => sql`((SELECT coalesce(sum(qv.content_size), 0) FROM variants qv WHERE qv.user_id = ${user})
  + (SELECT coalesce(sum(qu.size), 0) FROM uploads qu WHERE qu.user_id = ${user} AND qu.state IN ('active', 'completing')))`;

/** The user's limit in SQL: their own, else the default; NULL = unlimited. */
const limitOf = (env: Env, userId: string) => {
  const fallback = defaultQuota(env);
  return sql`coalesce((SELECT qq.quota FROM users qq WHERE qq.user_id = ${literal(userId)}), ${literal(fallback)})`;
};

/** True when `size` more bytes keep the user within their quota: for the WHERE of the insert that takes them. */
export const fitsQuota = (env: Env, userId: string, size: number): SQL =>
  sql`(${limitOf(env, userId)} IS NULL OR ${usedBytes(literal(userId))} + ${literal(Math.trunc(size))} <= ${limitOf(env, userId)})`;

/** "1001 байт", "2,9 КБ", "700,0 МБ", "1,50 ГБ": enough to compare a file with what is left. */
function sizeRu(bytes: number) {
  if (bytes < 1024) return `${bytes} байт`;
  const [v, unit] = bytes < 1024 ** 2 ? [bytes / 1024, "КБ"] : bytes < 1024 ** 3 ? [bytes / 1024 ** 2, "МБ"] : [bytes / 1024 ** 3, "ГБ"];
  return `${v.toFixed(unit === "ГБ" ? 2 : 1).replace(".", ",")} ${unit}`;
}

/** The user's stored bytes and limit (null = unlimited). */
export async function quotaOf(db: Db, env: Env, userId: string) {
  const row = await db
    .select({ quota: users.quota, used: usedBytes(literal(userId)).mapWith(Number) })
    .from(users)
    .where(eq(users.userId, userId))
    .get();
  return { used: row?.used ?? 0, limit: row?.quota ?? defaultQuota(env) };
}

export const quotaExceeded = (used: number, limit: number, size: number) =>
  new ApiError(
    "payload_too_large",
    `Превышена квота: занято ${sizeRu(used)} из ${sizeRu(limit)}, а файл — ${sizeRu(size)}. Удалите ненужное или попросите администратора увеличить квоту`,
    [{ field: "size", message: "больше оставшейся квоты" }],
  );

/** Refuses `size` more bytes past the user's quota, with a message saying how much is used. */
export async function requireQuota(db: Db, env: Env, userId: string, size: number) {
  const { used, limit } = await quotaOf(db, env, userId);
  if (limit !== null && used + size > limit) throw quotaExceeded(used, limit, size);
}
