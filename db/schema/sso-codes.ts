import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";
import { users } from "./users";

/**
 * One-time hand-over codes: the callback puts one in /login?token=…, POST /api/auth/exchange-token turns
 * it into a session once, within 60 s. Only the code's SHA-256 is stored; using it deletes the row.
 */
export const ssoCodes = sqliteTable("sso_codes", {
  codeHash: uuidKey("code_hash"),
  userId: text("user_id")
    .notNull()
    .references(() => users.userId, { onDelete: "cascade" }),
  provider: text("provider").notNull(),
  expiresAt: unixTime("expires_at").notNull(),
});
