import { and, eq } from "drizzle-orm";
import { groupMembers, groups, tasks } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { copyAsset } from "../assets/extra";
import { createValues } from "../fields/values";
import { moveMembers } from "../groups/members";
import { accessContext, requirePlacement, resolveObjects } from "../lib/access";
import { configOf } from "../lib/config";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { eventInsert } from "../lib/events";
import { mailVia, sendMail } from "../lib/mail";
import { createLink } from "../sl/service";
import { createLinkBody } from "../../shared/sl/schemas";
import { createRequest } from "../review/approval";
import { attachTags, detachTags } from "../tags/links";
import { enqueueTask } from "../tasks/commands";
import { startRecognition } from "../tasks/recognize";
import { addMember } from "../taxonomy/members";
import { type Acting, actingDenied, actingUsers, lacking, requireActing } from "./acting";
import { checkConditions, type Subject } from "./conditions";
import type { Step } from "../../shared/udwf/schemas";
import { requireSend } from "./sending";
import { StepError } from "./step-error";
import { deliverWebhook } from "./webhook";

/**
 * The step actions. Each calls the service function its API route calls, as the workflow's owner (one way to do each
 * thing), after ./acting.ts checked the same rights for the workflow's actor and a manual run's caller: a workflow
 * does only what all of them could do by hand.
 */

export interface StepContext {
  db: Db;
  env: Env;
  owner: AuthUser;
  runId: string;
  workflowId: string;
  index: number;
  subject: Subject | null;
  input: Record<string, unknown>;
  /** Earlier steps' outputs, by index. */
  outputs: Record<number, Record<string, unknown> | null>;
  /** The step's own output from an earlier try (a waited-for task's id). */
  previous: Record<string, unknown> | null;
}

/** What a step answers: its output; `stop` ends the run there, `wait` asks to be called again later. */
export interface StepResult {
  output: Record<string, unknown>;
  log: string;
  stop?: boolean;
  wait?: boolean;
}

export { StepError };

const origin = (env: Env) => configOf(env).PUBLIC_URL ?? "";

function subjectOf(ctx: StepContext): Subject {
  if (!ctx.subject) throw new StepError("У запуска нет файла или группы, над которыми работать");
  return ctx.subject;
}
function assetOf(ctx: StepContext): string {
  const s = subjectOf(ctx);
  if (s.type !== "asset") throw new StepError("Это действие работает только с файлами");
  return s.id;
}

/** {{asset.id}}, {{link.url}} (the last link a step made), {{form.<name>}}, {{run.id}} in texts. */
function fill(text: string, ctx: StepContext) {
  const link = Object.values(ctx.outputs).findLast((o) => o && typeof o.url === "string");
  const form = (ctx.input.form ?? {}) as Record<string, unknown>;
  return text.replace(/\{\{\s*([a-z_]+)\.([a-z0-9_]+)\s*\}\}/gi, (all, what: string, key: string) => {
    if (what === "form") return String(form[key] ?? "");
    if (what === "link" && key === "url") return String(link?.url ?? "");
    if (what === "asset" && key === "id") return ctx.subject?.id ?? "";
    if (what === "run" && key === "id") return ctx.runId;
    return all;
  });
}

/**
 * Those whose rights bound this run besides the owner, loaded once per run per invocation: the runner hands every
 * step of a run the same input object, so it keys the cache (and a new invocation reads them fresh).
 */
const actingCache = new WeakMap<object, Promise<Acting[]>>();
function actingOf(ctx: StepContext) {
  let got = actingCache.get(ctx.input);
  if (!got) {
    got = actingUsers(ctx.db, ctx.workflowId, ctx.owner.userId, ctx.input);
    actingCache.set(ctx.input, got);
  }
  return got;
}

export async function act(step: Step, ctx: StepContext): Promise<StepResult> {
  const acting = await actingOf(ctx);
  await requireActing(ctx.db, acting, step, ctx.subject);
  return actAsOwner(step, ctx, acting);
}

async function actAsOwner(step: Step, ctx: StepContext, acting: Acting[]): Promise<StepResult> {
  const { db, env, owner } = ctx;
  switch (step.action) {
    case "tag.add":
    case "tag.remove": {
      const s = subjectOf(ctx);
      const body = { tag_ids: [step.params.tag_id], entities: [{ id: s.id, type: s.type as "asset" | "group" }] };
      const r = step.action === "tag.add" ? await attachTags(db, owner, body) : await detachTags(db, owner, body);
      return { output: { count: r.count }, log: r.count ? "тег изменён" : "ничего не изменилось" };
    }
    case "taxon.add":
      await addMember(db, owner, step.params.taxon_id, subjectOf(ctx).id);
      return { output: {}, log: "добавлено в раздел таксономии" };
    case "field.set": {
      const s = subjectOf(ctx);
      const [fieldId] = await createValues(
        db,
        owner,
        [
          {
            entity_id: s.id,
            entity_type: s.type as "asset" | "group",
            def_id: step.params.def_id,
            field_data: step.params.value as NonNullable<unknown> | null,
          },
        ],
        false,
        true,
      );
      return { output: { field_id: fieldId }, log: "поле записано" };
    }
    case "asset.move": {
      const asset = assetOf(ctx);
      const places = await db
        .select({ id: groupMembers.groupId })
        .from(groupMembers)
        .innerJoin(groups, eq(groups.groupId, groupMembers.groupId))
        .where(and(eq(groupMembers.elId, asset), eq(groupMembers.elType, "asset")));
      if (places.some((p) => p.id === step.params.to)) return { output: {}, log: "файл уже в этой группе" };
      if (!places.length) throw new StepError("Файл не лежит ни в одной группе");
      await requireActingMove(db, acting, asset, places[0].id, step.params.to);
      await moveMembers(db, owner, places[0].id, step.params.to, [{ el_id: asset, el_type: "asset" }]);
      return { output: { from: places[0].id }, log: "файл перемещён" };
    }
    case "asset.copy": {
      const r = await copyAsset(db, env, owner, assetOf(ctx), step.params.to);
      return { output: { asset_id: r.asset_id }, log: "файл скопирован" };
    }
    case "share-link.create": {
      const body = createLinkBody.parse({
        acl: step.params.acl,
        email: step.params.email ?? [],
        time_range: [null, nowSeconds() + step.params.days * 86400],
      });
      const linkId = await createLink(db, env, owner, assetOf(ctx), body, origin(env));
      return {
        output: { link_id: linkId, url: `${origin(env)}/sl/${linkId}` },
        log: step.params.email?.length ? "ссылка создана и отправлена" : "ссылка создана",
      };
    }
    case "webhook.call": {
      const payload = {
        workflow_id: ctx.workflowId,
        run_id: ctx.runId,
        step: ctx.index,
        subject: ctx.subject,
        input: ctx.input,
        outputs: ctx.outputs,
      };
      // Within the owner's sends per hour (./sending.ts); the log keeps the answer's status, size and time, not its body.
      await requireSend(db, env, owner, "webhook.call");
      return deliverWebhook(env, { url: step.params.url, secret: step.params.secret!, msgId: `${ctx.runId}.${ctx.index}`, payload });
    }
    case "email.send": {
      const subject = fill(step.params.subject, ctx);
      const text = fill(step.params.body, ctx);
      await requireSend(db, env, owner, "email.send", step.params.to.length);
      const failed = (await sendMail(env, step.params.to, subject, text, text)).filter((r) => !r.ok);
      if (failed.length) throw new StepError(`не отправлено: ${failed.map((f) => `${f.to} (${f.error})`).join(", ")}`, true);
      await eventInsert(db, {
        kind: "workflow.email",
        userId: owner.userId,
        entityType: "workflow",
        entityId: ctx.workflowId,
        data: { run: ctx.runId, to: step.params.to, via: mailVia(env) },
      }).run();
      return { output: { sent: step.params.to.length }, log: `отправлено: ${step.params.to.join(", ")}` };
    }
    case "review.request": {
      const due = step.params.due_days ? nowSeconds() + step.params.due_days * 86400 : undefined;
      const body = { asset_id: assetOf(ctx), reviewers: step.params.reviewers, all_must_approve: step.params.all_must_approve, due };
      const r = await createRequest(db, env, owner, body, origin(env));
      return { output: { request_id: r.request_id, version: r.version }, log: `запрошено согласование версии ${r.version}` };
    }
    case "stop-if": {
      const r = await checkConditions(db, ctx.subject, [step.params.condition]);
      return r.ok
        ? { output: { stopped: true }, log: "условие выполнено: остановка", stop: true }
        : { output: { stopped: false }, log: "условие не выполнено: дальше" };
    }
    case "task.run":
      return runTask(ctx, step.params);
    case "transcript.recognize":
      return recognize(ctx, step.params);
  }
}

/** Starts the task once (its id is kept in the step's output); with `wait`, asks to be called again until it ends. */
async function runTask(ctx: StepContext, p: { template: string; wait?: boolean }): Promise<StepResult> {
  let jobId = ctx.previous?.job_id as string | undefined;
  if (!jobId) {
    const t = await enqueueTask(ctx.db, ctx.env, ctx.owner, assetOf(ctx), { template_id: p.template, priority: 0, hold: false });
    jobId = t.job_id;
    if (!p.wait) return { output: { job_id: jobId }, log: `задача ${jobId} поставлена` };
  }
  return waitForTask(ctx, jobId, "задача выполнена");
}

/**
 * «Расшифровка» of the subject's latest version, started once as the owner through the route's own service call
 * (503 «Распознавание речи не настроено» fails the run with that text); with `wait`, done when the transcript is.
 * The task carries the run as its cause, so the transcript it saves does not start this workflow again.
 */
async function recognize(ctx: StepContext, p: { language?: string; wait?: boolean }): Promise<StepResult> {
  let jobId = ctx.previous?.job_id as string | undefined;
  if (!jobId) {
    const t = await startRecognition(ctx.db, ctx.env, ctx.owner, assetOf(ctx), { language: p.language });
    jobId = t.job_id;
    if (!p.wait) return { output: { job_id: jobId, version: t.version }, log: `расшифровка поставлена: задача ${jobId}` };
  }
  return waitForTask(ctx, jobId, "расшифровка готова");
}

/** A started task's step: done when the task is, failed when it failed, otherwise asked again later. */
async function waitForTask(ctx: StepContext, jobId: string, done: string): Promise<StepResult> {
  const t = await ctx.db.select({ status: tasks.status }).from(tasks).where(eq(tasks.jobId, jobId)).get();
  if (t?.status === "done") return { output: { job_id: jobId, status: "done" }, log: done };
  if (!t || t.status === "error" || t.status === "canceled") throw new StepError(`задача ${jobId} завершилась: ${t?.status ?? "удалена"}`);
  return { output: { job_id: jobId }, log: `ждём задачу ${jobId} (${t.status})`, wait: true };
}

/** A move as moveMembers judges it, for everyone besides the owner: `group` on both ends, and placing never widens. */
async function requireActingMove(db: Db, acting: Acting[], asset: string, from: string, to: string) {
  if (!acting.length) return;
  const groupsOf = await resolveObjects(db, [from, to]);
  for (const a of acting) {
    const ctx = await accessContext(db, a.user);
    const miss = lacking(ctx, groupsOf.get(from), ["group"]) ?? lacking(ctx, groupsOf.get(to), ["group"]);
    if (miss) throw actingDenied(a, miss, "группы, откуда и куда перемещается файл");
    await requirePlacement(db, a.user, [{ id: asset, type: "asset" }], to, from);
  }
}
