import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { unixTime } from "./columns";

/** Failed sign-in counters, one row per key ("login:<name>" or "ip:<address>") and window. */
export const loginAttempts = sqliteTable("login_attempts", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull(),
  windowEnds: unixTime("window_ends").notNull(),
});
