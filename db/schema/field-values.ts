import { index, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";

/**
 * An entity field value. pts is kept as two columns so a time range is an index range;
 * value_text / value_num repeat a single scalar field_data in a typed column, so entities-by-field's
 * eq, in, prefix and ranges are index seeks on (def_id, value) rather than JSON scans.
 */
export const fieldValues = sqliteTable(
  "field_values",
  {
    fieldId: uuidKey("field_id"),
    entityId: text("entity_id").notNull(),
    entityType: text("entity_type").notNull(),
    assetVersion: integer("asset_version"),
    ptsStart: real("pts_start"),
    ptsEnd: real("pts_end"),
    data: text("field_data", { mode: "json" }).$type<unknown>().notNull(),
    defId: text("def_id").notNull(),
    valueText: text("value_text"),
    valueNum: real("value_num"),
    userId: text("user_id"),
    ctime: unixTime("ctime").notNull(),
    mtime: unixTime("mtime").notNull(),
  },
  (t) => [
    index("field_values_entity_idx").on(t.entityId, t.assetVersion, t.ptsStart),
    index("field_values_def_text_idx").on(t.defId, t.valueText, t.entityId),
    index("field_values_def_num_idx").on(t.defId, t.valueNum, t.entityId),
  ],
);

export type FieldValue = typeof fieldValues.$inferSelect;
