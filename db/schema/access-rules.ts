import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";

export const subjectTypes = ["user", "group"] as const;
export const objectTypes = ["asset", "group"] as const;

/** An access rule (docs/decisions/003-permission-engine.md): a subject gets a list of permission values on an object. */
export const accessRules = sqliteTable(
  "access_rules",
  {
    ruleId: uuidKey("rule_id"),
    subjId: text("subj_id").notNull(),
    subjType: text("subj_type", { enum: subjectTypes }).notNull(),
    objId: text("obj_id").notNull(),
    objType: text("obj_type", { enum: objectTypes }).notNull(),
    /** JSON array of permission values (shared/lib/permissions.ts). */
    acl: text("acl", { mode: "json" }).$type<string[]>().notNull(),
    ctime: unixTime("ctime").notNull(),
  },
  (t) => [
    index("access_rules_subj_idx").on(t.subjId),
    index("access_rules_obj_idx").on(t.objId),
    // One rule per subject and object: a second grant edits the first instead of competing with it.
    uniqueIndex("access_rules_subj_obj_unique").on(t.subjId, t.objId),
  ],
);
