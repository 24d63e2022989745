import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";

/** A licence the shop sells under (docs/decisions/048-shop.md): its terms and how long a delivery lasts. */
export const shopLicences = sqliteTable("shop_licences", {
  licenceId: uuidKey("licence_id"),
  name: text("name").notNull(),
  terms: text("terms").notNull().default(""),
  /** Days the buyer's download link works; null = the shop's default (30). */
  durationDays: integer("duration_days"),
  ctime: unixTime("ctime").notNull(),
  mtime: unixTime("mtime").notNull(),
});

export type ShopLicence = typeof shopLicences.$inferSelect;
