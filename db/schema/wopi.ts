import { primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { unixTime } from "./columns";

/**
 * Office-editing locks (the WOPI protocol's Lock/Unlock/RefreshLock): one per asset, the lock id as the
 * client made it (an opaque string up to 1,024 characters), who took it and when it lapses (30 minutes
 * after the last lock or refresh). An expired row counts as no lock and is replaced by the next LOCK.
 */
export const wopiLocks = sqliteTable("wopi_locks", {
  assetId: text("asset_id").primaryKey(),
  lockId: text("lock_id").notNull(),
  userId: text("user_id").notNull(),
  expiresAt: unixTime("expires_at").notNull(),
});

/** What a WOPI client stored with PUT_USER_INFO for a user and a file (returned as CheckFileInfo's UserInfo). */
export const wopiUserInfo = sqliteTable(
  "wopi_user_info",
  {
    userId: text("user_id").notNull(),
    assetId: text("asset_id").notNull(),
    info: text("info").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.assetId] })],
);

export type WopiLock = typeof wopiLocks.$inferSelect;
