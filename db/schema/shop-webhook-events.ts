import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { unixTime } from "./columns";

/** Payment provider events already handled, by their id: a replayed webhook finds its row and does nothing. */
export const shopWebhookEvents = sqliteTable("shop_webhook_events", {
  eventId: text("event_id").primaryKey(),
  provider: text("provider").notNull(),
  kind: text("kind").notNull(),
  orderId: text("order_id"),
  ctime: unixTime("ctime").notNull(),
});
