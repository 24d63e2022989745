import { sqliteTable, text, integer } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";

/** A field template: the type and setup every value of this field is checked against. */
export const fieldTemplates = sqliteTable("field_templates", {
  fieldDefId: uuidKey("field_def_id"),
  name: text("field_def_name").notNull(),
  fieldType: text("field_type").notNull(),
  /** Typed per field_type (shared/fields/schemas.ts fieldSetups). */
  setup: text("field_setup", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  priority: integer("field_priority").notNull().default(0),
  extsys: text("field_def_extsys"),
  extsysKey: text("field_def_extsys_key"),
  ctime: unixTime("ctime").notNull(),
  mtime: unixTime("mtime").notNull(),
});

export type FieldTemplate = typeof fieldTemplates.$inferSelect;
