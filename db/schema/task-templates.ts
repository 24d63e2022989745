import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { operationClasses } from "../../shared/lib/operation-classes";
import { unixTime, uuidKey } from "./columns";

export { operationClasses };
export type OperationClass = (typeof operationClasses)[number];

/**
 * A task template: data, not code. `setup` holds the class's parameters (size,
 * bit rate, codec, watermark text…) and `on_upload`, the mime prefixes it starts for by itself.
 * Validated by shared/tasks/schemas.ts. Owner null: a system default (seeded on first use).
 */
export const taskTemplates = sqliteTable(
  "task_templates",
  {
    templateId: uuidKey("template_id"),
    name: text("name").notNull(),
    operationClass: text("operation_class", { enum: operationClasses }).notNull(),
    setup: text("setup", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    owner: text("owner"),
    disabled: integer("disabled", { mode: "boolean" }).notNull().default(false),
    ctime: unixTime("ctime").notNull(),
    mtime: unixTime("mtime").notNull(),
  },
  (t) => [index("task_templates_class_idx").on(t.operationClass)],
);

export type TaskTemplate = typeof taskTemplates.$inferSelect;
