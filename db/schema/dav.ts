import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";
import { users } from "./users";

/**
 * WebDAV write locks (RFC 4918 section 6), keyed by the locked object (a group or asset id), never by a
 * path: each user's /dav/ tree starts at their own readable roots, so one object has several paths and
 * unrelated objects share one (docs/decisions/025-threat-model.md). A LOCK on an unmapped name creates an
 * empty file first (RFC 4918 section 7.3), so every lock has an object. Expired rows are ignored by every
 * check and swept by the cron.
 */
export const davLocks = sqliteTable(
  "dav_locks",
  {
    token: text("token").primaryKey(),
    /** The locked group or asset. */
    entityId: text("entity_id").notNull(),
    /** 0 or -1 (infinity: the group's subgroups and the assets placed anywhere under it). */
    depth: integer("depth").notNull(),
    shared: integer("shared", { mode: "boolean" }).notNull(),
    /** The client's <D:owner> XML, returned as given. */
    ownerXml: text("owner_xml").notNull().default(""),
    userId: text("user_id").notNull(),
    timeoutSeconds: integer("timeout_seconds").notNull(),
    expiresAt: unixTime("expires_at").notNull(),
  },
  (t) => [index("dav_locks_entity_idx").on(t.entityId)],
);

/** Dead properties set by PROPPATCH, per object (group or asset id), so they follow a MOVE. */
export const davProps = sqliteTable(
  "dav_props",
  {
    entityId: text("entity_id").notNull(),
    ns: text("ns").notNull(),
    name: text("name").notNull(),
    /** The property element serialised back to XML (its value, children and xml:lang kept). */
    xml: text("xml").notNull(),
  },
  (t) => [primaryKey({ columns: [t.entityId, t.ns, t.name] })],
);

/**
 * App passwords: personal secrets for WebDAV clients and the disk helper (the only way in for a user
 * who signs in through single sign-on). Shown once; only the SHA-256 is stored.
 */
export const appPasswords = sqliteTable(
  "app_passwords",
  {
    passwordId: uuidKey("password_id"),
    userId: text("user_id")
      .notNull()
      .references(() => users.userId, { onDelete: "cascade" }),
    name: text("name").notNull(),
    secretHash: text("secret_hash").notNull(),
    ctime: unixTime("ctime").notNull(),
    lastUsed: unixTime("last_used"),
    revokedAt: unixTime("revoked_at"),
  },
  (t) => [uniqueIndex("app_passwords_hash_unique").on(t.secretHash), index("app_passwords_user_idx").on(t.userId)],
);

export type DavLock = typeof davLocks.$inferSelect;
