import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";
import { users } from "./users";

/**
 * API tokens of robot users. The token (`mam_<secret>`) is shown once when issued; only its
 * SHA-256 is stored, looked up by the auth middleware (functions/lib/auth.ts).
 */
export const apiTokens = sqliteTable(
  "api_tokens",
  {
    tokenId: uuidKey("token_id"),
    userId: text("user_id")
      .notNull()
      .references(() => users.userId, { onDelete: "cascade" }),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    ctime: unixTime("ctime").notNull(),
    expiresAt: unixTime("expires_at"),
    revokedAt: unixTime("revoked_at"),
  },
  (t) => [uniqueIndex("api_tokens_hash_unique").on(t.tokenHash), index("api_tokens_user_idx").on(t.userId)],
);
