import { inArray } from "drizzle-orm";
import { fieldTemplates, tags, taskTemplates, taxa, type UdwfWorkflow } from "../../db/schema";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import type { ErrorDetail } from "../lib/errors";
import { idList } from "../lib/sql";
import { invalidFields } from "../lib/validation";
import { reachProblems, unreachable } from "./acting";
import { cronError } from "./schedule";
import type { SetupBody } from "../../shared/udwf/schemas";

/**
 * What zod cannot see in a setup: that the tags, taxa, fields and templates it names exist, that a cron parses, and
 * that both the one saving it and the owner reach what it names (./acting.ts reachProblems: a workflow acts only
 * where both hold the rights). Every problem is one detail naming the step and parameter ("steps.2.params.tag_id");
 * a 403 when any is about rights (all problems listed), else a 400. A webhook step without a secret gets a generated
 * Standard Webhooks secret.
 */
export async function checkedSetup(db: Db, wf: UdwfWorkflow, body: SetupBody, saver: AuthUser): Promise<SetupBody> {
  const details: ErrorDetail[] = [];
  const refs = {
    tag: new Map<string, string>(),
    taxon: new Map<string, string>(),
    def: new Map<string, string>(),
    template: new Map<string, string>(),
  };
  const ref = (kind: keyof typeof refs, id: string | undefined, field: string) => {
    if (id && !refs[kind].has(id)) refs[kind].set(id, field);
  };
  const t = body.trigger;
  if (t.cron) {
    const bad = cronError(t.cron);
    if (bad) details.push({ field: "trigger.cron", message: `не выражение cron: ${bad}` });
  }
  ref("tag", t.tag_id, "trigger.tag_id");
  ref("def", t.def_id, "trigger.def_id");
  ref("template", t.template, "trigger.template");
  const conditions = [...body.conditions.map((c, i) => ({ c, at: `conditions.${i}` }))];
  const steps = body.steps.map((s, i) => {
    const at = `steps.${i}.params`;
    const p = s.params as Record<string, unknown>;
    if (s.action === "stop-if") conditions.push({ c: s.params.condition, at: `${at}.condition` });
    if (s.action === "tag.add" || s.action === "tag.remove") ref("tag", s.params.tag_id, `${at}.tag_id`);
    if (s.action === "taxon.add") ref("taxon", s.params.taxon_id, `${at}.taxon_id`);
    if (s.action === "field.set") ref("def", s.params.def_id, `${at}.def_id`);
    if (s.action === "task.run") ref("template", s.params.template, `${at}.template`);
    if (s.action === "webhook.call") {
      return { ...s, params: { ...p, secret: s.params.secret ?? generatedSecret() } };
    }
    return s;
  });
  for (const { c, at } of conditions) {
    if (c.on === "tag" && typeof c.value === "string") ref("tag", c.value, `${at}.value`);
    if (c.on === "field") ref("def", c.def_id, `${at}.def_id`);
  }
  const found = async (kind: "tag" | "taxon" | "def" | "template") => {
    const ids = [...refs[kind].keys()];
    if (!ids.length) return new Set<string>();
    const table = {
      tag: [tags, tags.tagId],
      taxon: [taxa, taxa.taxonId],
      def: [fieldTemplates, fieldTemplates.fieldDefId],
      template: [taskTemplates, taskTemplates.templateId],
    } as const;
    const [tbl, col] = table[kind];
    const rows = await db
      .select({ id: col })
      .from(tbl)
      .where(inArray(col, idList(ids)))
      .all();
    return new Set(rows.map((r) => r.id));
  };
  const missing = {
    tag: "нет такого тега",
    taxon: "нет такого раздела таксономии",
    def: "нет такого поля",
    template: "нет такого шаблона задачи",
  };
  for (const kind of ["tag", "taxon", "def", "template"] as const) {
    const have = await found(kind);
    for (const [id, field] of refs[kind]) if (!have.has(id)) details.push({ field, message: missing[kind] });
  }
  const denied = await reachProblems(db, wf, body, saver);
  if (denied.length) throw unreachable([...details, ...denied]);
  if (details.length) throw invalidFields(details);
  return { ...body, steps: steps as SetupBody["steps"] };
}

/** A Standard Webhooks secret: whsec_ and 24 random bytes in base64. */
function generatedSecret() {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}
