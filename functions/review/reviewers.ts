import { and, asc, eq, or, sql } from "drizzle-orm";
import { users } from "../../db/schema";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import { searchPatterns } from "../users/service";
import { assetPerms, readersOf } from "./common";
import { MAX_CANDIDATES, type ReviewerCandidate } from "../../shared/review/reviewers-schemas";

/** Candidates looked at per search: enough that readers are found among non-readers, bounded for the per-user rights check. */
const SCAN = 100;

/**
 * The people a requester may ask to review the asset: enabled users (not robots) whose name or login holds `q`, who
 * can read the asset, as POST /api/review/requests accepts them. The user directory (/api/user) is for admins
 * only; this answers those who may request (update on the asset) and names only people who already see the file.
 */
export async function reviewerCandidates(db: Db, auth: AuthUser, assetId: string, q: string): Promise<ReviewerCandidate[]> {
  const perms = await assetPerms(db, auth, assetId);
  if (!perms.includes("update")) throw new ApiError("forbidden", "Недостаточно прав: нужно право «update»");
  const likes = q ? searchPatterns(q) : [];
  const rows = await db
    .select({ user_id: users.userId, name: users.userName, login: users.login })
    .from(users)
    .where(
      and(
        eq(users.enabled, true),
        eq(users.isRobot, false),
        likes.length
          ? or(...likes.flatMap((like) => [sql`${users.login} LIKE ${like} ESCAPE '\\'`, sql`${users.userName} LIKE ${like} ESCAPE '\\'`]))
          : undefined,
      ),
    )
    .orderBy(asc(users.userName), asc(users.login))
    .limit(SCAN);
  const readers = await readersOf(
    db,
    rows.map((r) => r.user_id),
    assetId,
  );
  return rows.filter((r) => readers.has(r.user_id)).slice(0, MAX_CANDIDATES);
}
