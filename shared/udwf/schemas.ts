import { z } from "@hono/zod-openapi";
import { shareLinkAclValues } from "../sl/schemas";
import { entityId, idParam, pageQuery } from "../groups/schemas";
import { overallStatuses } from "../review/schemas";

/**
 * Automations (user-defined workflows, docs/decisions/047-automations.md): the trigger, condition and step
 * shapes, shared by the API validator and the editor's forms (no server imports). The step parameters are the
 * action catalogue (GET /api/udwf/actions): the editor builds its forms from their JSON schemas.
 */

export { idParam };

export const triggerTypes = [
  "asset.uploaded",
  "field.changed",
  "tag.added",
  "task.finished",
  "share-link.created",
  "share-link.opened",
  "review.status-changed",
  "transcript.ready",
  "schedule",
  "manual",
  "webhook",
] as const;
export type TriggerType = (typeof triggerTypes)[number];

/** Chains of workflows started by other workflows' changes stop here. */
export const MAX_DEPTH = 5;

const text = (max: number) =>
  z.string({ error: "должно быть строкой" }).trim().min(1, "не может быть пустым").max(max, `не длиннее ${max}`);

export const formFieldTypes = ["string", "number", "boolean"] as const;

export const formField = z.object({
  name: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,39}$/, "латиница, цифры и «_», с буквы")
    .describe("the key of the value in form"),
  label: text(100),
  type: z.enum(formFieldTypes, { error: "string, number или boolean" }),
  required: z.boolean().default(false),
  default: z.union([z.string(), z.number(), z.boolean()]).optional(),
});
export type FormField = z.infer<typeof formField>;

/** A cron expression of five fields (minute … weekday); croner checks it on save. */
const cron = z
  .string()
  .trim()
  .regex(/^(\S+\s+){4}\S+$/, "пять полей: минуты часы день месяц день-недели");

export const trigger = z
  .object({
    type: z.enum(triggerTypes, { error: `один из: ${triggerTypes.join(", ")}` }),
    group_id: entityId.optional().describe("asset.uploaded, field.changed, tag.added, share-link.*, transcript.ready: only in this group"),
    subtree: z.boolean().default(true).describe("with group_id: its subgroups too"),
    cron: cron.optional().describe("schedule: when (UTC)"),
    def_id: entityId.optional().describe("field.changed: only this field"),
    tag_id: entityId.optional().describe("tag.added: only this tag"),
    template: entityId.optional().describe("task.finished: only this task template"),
    status: z.enum(["done", "error"]).optional().describe("task.finished: only this outcome"),
    review_status: z
      .enum(overallStatuses, { error: `одно из: ${overallStatuses.join(", ")}` })
      .optional()
      .describe("review.status-changed: only when a version's overall status becomes this"),
    form: z.array(formField).max(20, "не больше 20 полей").default([]).describe("manual: what a run asks for"),
  })
  .superRefine((t, ctx) => {
    if (t.type === "schedule" && !t.cron) ctx.addIssue({ code: "custom", path: ["cron"], message: "расписанию нужно выражение cron" });
  });
export type Trigger = z.infer<typeof trigger>;

export const conditionOns = ["mime", "size", "group", "class", "tag", "field"] as const;
export const conditionOps = ["eq", "ne", "gt", "gte", "lt", "lte", "prefix", "contains", "in", "has", "not"] as const;
export type ConditionOp = (typeof conditionOps)[number];

/** Which ops each subject takes (the metadata ops for fields). */
export const opsFor: Record<(typeof conditionOns)[number], readonly ConditionOp[]> = {
  mime: ["prefix", "eq", "ne"],
  size: ["gt", "gte", "lt", "lte", "eq"],
  group: ["in", "not"],
  class: ["eq", "ne"],
  tag: ["has", "not"],
  field: ["eq", "ne", "gt", "gte", "lt", "lte", "contains"],
};

export const condition = z
  .object({
    on: z.enum(conditionOns, { error: `одно из: ${conditionOns.join(", ")}` }),
    def_id: entityId.optional(),
    op: z.enum(conditionOps, { error: `один из: ${conditionOps.join(", ")}` }),
    value: z.union([z.string().max(500), z.number(), z.boolean()], { error: "строка, число или да/нет" }),
  })
  .superRefine((c, ctx) => {
    if (!opsFor[c.on].includes(c.op)) ctx.addIssue({ code: "custom", path: ["op"], message: `для «${c.on}»: ${opsFor[c.on].join(", ")}` });
    if (c.on === "field" && !c.def_id) ctx.addIssue({ code: "custom", path: ["def_id"], message: "укажите поле" });
    if (c.on === "size" && typeof c.value !== "number") ctx.addIssue({ code: "custom", path: ["value"], message: "размер — число байт" });
    if ((c.on === "group" || c.on === "tag") && !(typeof c.value === "string" && /^[0-9a-f-]{36}$/i.test(c.value)))
      ctx.addIssue({ code: "custom", path: ["value"], message: "должен быть идентификатором (UUID)" });
  });
export type Condition = z.infer<typeof condition>;

const url = z
  .string()
  .trim()
  .max(2000)
  .refine((u) => /^https?:\/\/[^\s/]+/i.test(u), "только http(s)-адрес");
const email = z.string().trim().email("не адрес e-mail").max(320);

/** The action catalogue: each action's parameters. */
export const actionParams = {
  "task.run": z.object({
    template: entityId.describe("task template"),
    wait: z.boolean().default(false).describe("wait for it to finish"),
  }),
  "asset.move": z.object({ to: entityId.describe("target group") }),
  "asset.copy": z.object({ to: entityId.describe("target group") }),
  "field.set": z.object({ def_id: entityId.describe("field template"), value: z.unknown().describe("the field's value") }),
  "tag.add": z.object({ tag_id: entityId.describe("tag") }),
  "tag.remove": z.object({ tag_id: entityId.describe("tag") }),
  "taxon.add": z.object({ taxon_id: entityId.describe("taxon") }),
  "share-link.create": z.object({
    acl: z.array(z.enum(shareLinkAclValues)).min(1, "хотя бы одно право").describe("what the recipient may do"),
    days: z.number({ error: "должно быть числом" }).int("целое").min(1, "не меньше 1").max(365, "не больше 365").describe("valid for days"),
    email: z.array(email).max(20, "не больше 20 адресов").optional().describe("mail it to"),
  }),
  "webhook.call": z.object({
    url: url.describe("POSTed a signed JSON"),
    secret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/=]{24,}$/, "секрет Standard Webhooks: whsec_ и base64")
      .optional()
      .describe("empty: one is generated"),
  }),
  "email.send": z.object({
    to: z.array(email).min(1, "хотя бы один адрес").max(20, "не больше 20 адресов"),
    subject: text(200),
    body: text(5000).describe("{{asset.name}}, {{link.url}} and {{form.<name>}} are filled in"),
  }),
  "stop-if": z.object({ condition }),
  "review.request": z.object({
    reviewers: z
      .array(z.string().trim().min(1, "не может быть пустым").max(320))
      .min(1, "хотя бы один рецензент")
      .max(50, "не больше 50")
      .describe("user ids, or e-mail addresses that are users' logins"),
    all_must_approve: z.boolean().default(false).describe("every reviewer must approve"),
    due_days: z
      .number({ error: "должно быть числом" })
      .int("целое")
      .min(1, "не меньше 1")
      .max(365, "не больше 365")
      .optional()
      .describe("answer within days"),
  }),
  "transcript.recognize": z.object({
    language: z
      .string()
      .regex(/^([a-z]{2,3}(-[A-Za-z0-9]{2,8})*)?$/, "код языка, например ru или en-US")
      .max(35)
      .optional()
      .describe("the speech's language; the recogniser guesses when empty"),
    wait: z.boolean().default(false).describe("wait for the transcript"),
  }),
} as const;

export type ActionType = keyof typeof actionParams;
export const actionTypes = Object.keys(actionParams) as ActionType[];

/** Actions that need an asset or group to act on (a schedule's run has none): all but the outgoing messages. */
export const assetActions: ActionType[] = actionTypes.filter((a) => a !== "webhook.call" && a !== "email.send");

export const step = z.discriminatedUnion(
  "action",
  actionTypes.map((action) => z.object({ action: z.literal(action), params: actionParams[action] })) as never,
  { error: `действие — одно из: ${actionTypes.join(", ")}` },
) as unknown as z.ZodType<{ [A in ActionType]: { action: A; params: z.infer<(typeof actionParams)[A]> } }[ActionType]>;
export type Step = z.infer<typeof step>;

export const setupBody = z
  .object({
    trigger,
    conditions: z.array(condition).max(20, "не больше 20 условий").default([]),
    steps: z.array(step).min(1, "нужен хотя бы один шаг").max(20, "не больше 20 шагов"),
  })
  .openapi("UdwfSetup");
export type SetupBody = z.infer<typeof setupBody>;

export const createBody = z.object({ name: text(200), description: z.string().max(2000).optional() }).openapi("UdwfCreate");
export const patchBody = z.object({ name: text(200).optional(), description: z.string().max(2000).optional() }).openapi("UdwfPatch");
export const enableBody = z.object({ enabled: z.boolean({ error: "да или нет" }) }).openapi("UdwfEnable");

export const executeBody = z
  .object({
    entities: z
      .array(z.object({ id: entityId, type: z.enum(["asset", "group"]) }))
      .max(100, "не больше 100")
      .default([]),
    form: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
  })
  .openapi("UdwfExecute");
export type ExecuteBody = z.infer<typeof executeBody>;

export const runStatuses = ["queued", "running", "waiting", "done", "failed", "stopped"] as const;

export const runsQuery = pageQuery.extend({
  workflow: entityId.optional(),
  status: z.enum(runStatuses, { error: `один из: ${runStatuses.join(", ")}` }).optional(),
});

export const workflowOut = z
  .object({
    workflow_id: z.string(),
    owner: z.string(),
    owner_name: z.string().nullable(),
    actor: z.string().describe("who last saved the setup or enabled it: runs act only where both they and the owner may"),
    actor_name: z.string().nullable(),
    name: z.string(),
    description: z.string(),
    enabled: z.boolean(),
    trigger: z.record(z.string(), z.unknown()).nullable(),
    conditions: z.array(z.record(z.string(), z.unknown())),
    steps: z.array(z.object({ action: z.string(), params: z.record(z.string(), z.unknown()) })),
    hook_url: z.string().nullable().describe("webhook trigger: POST here to start a run (a secret)"),
    last_run: z.object({ run_id: z.string(), status: z.string(), time: z.number() }).nullable(),
    runs_count: z.number(),
    access: z
      .enum(["owner", "edit", "view"])
      .describe("the caller's: owner (or admin) shares and deletes; edit changes and runs; view reads"),
    ctime: z.number(),
    mtime: z.number(),
  })
  .openapi("UdwfWorkflow");
export type WorkflowOut = z.infer<typeof workflowOut>;

export const shareRoles = ["view", "edit"] as const;
export const shareSubjectTypes = ["user", "team"] as const;

/** A share as the owner sets it: a user (by login or id) or a team (a group's id), and what they may do. */
export const shareIn = z.object({
  subject_type: z.enum(shareSubjectTypes, { error: "user или team" }),
  subject: text(200).describe("user: a login or user id; team: a group id"),
  role: z.enum(shareRoles, { error: "view или edit" }),
});
export const sharesBody = z.object({ shares: z.array(shareIn).max(100, "не больше 100") }).openapi("UdwfSharesIn");
export type SharesBody = z.infer<typeof sharesBody>;
export const sharesOut = z
  .object({
    items: z.array(
      z.object({
        subject_type: z.enum(shareSubjectTypes),
        subject_id: z.string(),
        name: z.string().nullable(),
        login: z.string().nullable(),
        role: z.enum(shareRoles),
      }),
    ),
  })
  .openapi("UdwfShares");
export type SharesOut = z.infer<typeof sharesOut>;

export const workflowsOut = z.object({ items: z.array(workflowOut) }).openapi("UdwfWorkflows");
export const created = z.object({ workflow_id: z.string() }).openapi("UdwfCreated");
export const ok = z.object({ ok: z.literal(true) }).openapi("UdwfOk");
export const runCreated = z
  .object({ run_id: z.string(), run_ids: z.array(z.string()).describe("one run per entity") })
  .openapi("UdwfRunCreated");

export const runRetried = z.object({ run_id: z.string() }).openapi("UdwfRunRetried");

export const catalogueOut = z
  .object({
    actions: z.array(z.object({ action: z.string(), needs_asset: z.boolean(), params: z.record(z.string(), z.unknown()) })),
    triggers: z.array(z.string()),
    conditions: z.record(z.string(), z.array(z.string())),
  })
  .openapi("UdwfCatalogue");

export const triggerFormOut = z
  .object({
    fields: z.array(formField.extend({ default: z.union([z.string(), z.number(), z.boolean()]).nullable() })),
    entities: z.boolean(),
  })
  .openapi("UdwfTriggerForm");

/** What a failed run or step failed of: a step's own failure, a missing right or object, a bug (udwf_runs.error_class). */
const errorClass = z
  .string()
  .nullable()
  .describe("step: the step's own failure; denied: a right or an object is missing; internal: a bug (udwfErrorClasses)");

// Inputs, outputs, logs and error texts are left out (not masked) for those the workflow is shared with for view only.
export const stepOut = z.object({
  step: z.number(),
  action: z.string(),
  status: z.string(),
  attempts: z.number(),
  error_class: errorClass,
  output: z.record(z.string(), z.unknown()).nullable().optional().describe("owner, editors, admins"),
  log: z.array(z.string()).optional().describe("owner, editors, admins"),
  started_at: z.number().nullable(),
  finished_at: z.number().nullable(),
});

export const runOut = z
  .object({
    run_id: z.string(),
    workflow_id: z.string(),
    workflow_name: z.string().nullable(),
    status: z.string(),
    depth: z.number(),
    input: z.record(z.string(), z.unknown()).optional().describe("owner, editors, admins"),
    error: z.string().nullable().optional().describe("owner, editors, admins"),
    error_class: errorClass,
    retries: z.number().int().describe("failed tries so far, each handed back to the queue («повтор N из M»)"),
    retries_max: z.number().int().describe("the retries a run gets before it fails"),
    ctime: z.number(),
    started_at: z.number().nullable(),
    finished_at: z.number().nullable(),
    first_step_at: z.number().nullable().describe("Unix milliseconds"),
    steps: z.array(stepOut),
  })
  .openapi("UdwfRun");
export type RunOut = z.infer<typeof runOut>;

export const runsOut = z.object({ items: z.array(runOut.omit({ steps: true })), total: z.number() }).openapi("UdwfRuns");
