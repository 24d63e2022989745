import { primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { unixTime } from "./columns";
import { users } from "./users";

/**
 * A user's identity at a single sign-on provider: the provider's stable subject (`sub`), never the e-mail,
 * which can change or be reassigned. One link per user and provider, so unlinking names just the provider.
 */
export const ssoLinks = sqliteTable(
  "sso_links",
  {
    provider: text("provider").notNull(),
    subject: text("subject").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.userId, { onDelete: "cascade" }),
    /** The e-mail the provider reported at the last sign-in, shown to admins only. */
    email: text("email"),
    ctime: unixTime("ctime").notNull(),
    lastLogin: unixTime("last_login").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.subject] }),
    // Also serves lookups by user (its first column).
    uniqueIndex("sso_links_user_provider").on(t.userId, t.provider),
  ],
);
