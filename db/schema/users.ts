import { sql } from "drizzle-orm";
import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";

export const users = sqliteTable(
  "users",
  {
    userId: uuidKey("user_id"),
    userName: text("user_name").notNull(),
    login: text("login").notNull(),
    /** scrypt hash in PHC-like form, see docs/decisions/002-password-hashing.md; null for robots and SSO-only users. */
    passwdHash: text("passwd_hash"),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    isAdmin: integer("is_admin", { mode: "boolean" }).notNull().default(false),
    isRobot: integer("is_robot", { mode: "boolean" }).notNull().default(false),
    /** JSON array of group ids that confine the user; empty = not confined. */
    chrootGroups: text("chroot_groups", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    defaultStorage: text("default_storage"),
    /** Bytes the user may store (functions/lib/quota.ts); null = the installation's DEFAULT_QUOTA_BYTES. */
    quota: integer("quota"),
    uiSettings: text("ui_settings", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    bookmarks: text("bookmarks", { mode: "json" }).$type<unknown[]>().notNull().default(sql`'[]'`),
    ctime: unixTime("ctime").notNull(),
    mtime: unixTime("mtime").notNull(),
  },
  (t) => [uniqueIndex("users_login_unique").on(sql`lower(${t.login})`)],
);

export type User = typeof users.$inferSelect;
