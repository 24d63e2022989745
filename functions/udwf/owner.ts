import { and, eq } from "drizzle-orm";
import { users } from "../../db/schema";
import { authUserColumns } from "../lib/auth";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";

/**
 * A workflow's owner as the permission engine sees them, read fresh for every run and every save, so a workflow
 * never acts with more than its owner has now; null when the owner is disabled or deleted (the workflow then does nothing).
 */
export async function ownerAuth(db: Db, userId: string): Promise<AuthUser | null> {
  const row = await db
    .select(authUserColumns)
    .from(users)
    .where(and(eq(users.userId, userId), eq(users.enabled, true)))
    .get();
  return row ? { ...row, sessionId: "automation" } : null;
}
