import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";
import { users } from "./users";

/**
 * One row per sign-in (a refresh-token family). The refresh cookie is `<session_id>.<secret>`;
 * only the hash of the current secret is kept, so a rotated-away secret presented again is
 * recognised as reuse and the whole family is revoked.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    sessionId: uuidKey("session_id"),
    userId: text("user_id")
      .notNull()
      .references(() => users.userId, { onDelete: "cascade" }),
    refreshHash: text("refresh_hash").notNull(),
    ctime: unixTime("ctime").notNull(),
    /** Refresh cookie expiry; moves forward on every rotation (idle timeout). */
    expiresAt: unixTime("expires_at").notNull(),
    revokedAt: unixTime("revoked_at"),
    userAgent: text("user_agent"),
    ip: text("ip"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);
