import { and, eq, type SQL } from "drizzle-orm";
import { users } from "../../db/schema";
import { authUserColumns } from "./auth";
import type { Db } from "./db";
import type { AuthUser } from "./env";

/**
 * A workflow's owner as the permission engine sees them, read fresh for every run and every save, so a workflow
 * never acts with more than its owner has now; null when the owner is disabled or deleted (the workflow then does nothing).
 */
export async function ownerAuth(db: Db, userId: string): Promise<AuthUser | null> {
  return ownerOf(await ownerQuery(db, userId));
}

/** The owner's row, as a statement a batch can carry (`userId`: an id or a subquery yielding it). */
export const ownerQuery = (db: Db, userId: string | SQL) =>
  db
    .select(authUserColumns)
    .from(users)
    .where(and(eq(users.userId, userId), eq(users.enabled, true)));

export const ownerOf = (rows: Awaited<ReturnType<typeof ownerQuery>>): AuthUser | null =>
  rows[0] ? { ...rows[0], sessionId: "automation" } : null;
