import { eq, inArray } from "drizzle-orm";
import { udwfWorkflows, users, type UdwfWorkflow } from "../../db/schema";
import { accessContext, permissionsOn, resolveObjects, type AccessContext, type ResolvedObject } from "../lib/access";
import { authUserColumns } from "../lib/auth";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError, type ErrorDetail } from "../lib/errors";
import type { Permission } from "../../shared/lib/permissions";
import { idList } from "../lib/sql";
import { ownerAuth } from "../lib/owner";
import type { SetupBody, Step } from "../../shared/udwf/schemas";

/**
 * Whose rights a workflow acts with (docs/decisions/025-threat-model.md, "Shared automations"): its owner's AND those
 * of whoever last saved its setup or enabled it (`udwf_workflows.actor`), and for a manual run the caller's too. The
 * step's service function is called as the owner (so it checks the owner, one way to do each thing); this module
 * checks everybody else on the same objects with the same rights, before the step acts. Sharing for edit thus lends
 * the workflow, never the owner's reach: an editor cannot point it at what only the owner may touch.
 */

/** What a step needs on the run's subject (the file or group it started on), and on the group it names, if any. */
export function stepNeeds(step: Step): { subject: Permission[]; target?: { id: string; permission: Permission } } {
  switch (step.action) {
    case "tag.add":
    case "tag.remove":
    case "taxon.add":
    case "field.set":
      return { subject: ["update"] };
    case "share-link.create":
      // As createLink: acl to share at all, download when the link gives more than a view.
      return { subject: step.params.acl.some((a) => a !== "view") ? ["acl", "download"] : ["acl"] };
    case "asset.copy":
      return { subject: ["download"], target: { id: step.params.to, permission: "create" } };
    case "asset.move":
      return { subject: ["read"], target: { id: step.params.to, permission: "group" } };
    case "task.run":
      return { subject: ["execute"] };
    case "review.request":
      // As POST /api/review/requests.
      return { subject: ["update"] };
    case "transcript.recognize":
      // As POST /api/transcripts/{id}/recognize: its result replaces the version's transcript.
      return { subject: ["update"] };
    default:
      // webhook.call and email.send send what they see of it; stop-if tests it.
      return { subject: ["read"] };
  }
}

/** The first of `need` the context lacks on `obj` ("read" when it cannot see it at all), or null. */
export function lacking(ctx: AccessContext, obj: ResolvedObject | undefined, need: Permission[]): Permission | null {
  const perms = obj && permissionsOn(ctx, obj);
  if (!perms) return "read";
  return need.find((p) => p !== "read" && !perms.includes(p)) ?? null;
}

/** One whose rights bound a run besides the owner. */
export interface Acting {
  user: AuthUser;
  /** Who they are to the workflow, for the error a run ends with. */
  role: "actor" | "caller" | "retrier";
}

const roleText = {
  actor: "последним менял или включал автоматизацию",
  caller: "запустил её вручную",
  retrier: "повторил запуск",
};

const usersQuery = (db: Db, ids: string[]) =>
  db
    .select({ ...authUserColumns, enabled: users.enabled })
    .from(users)
    .where(inArray(users.userId, idList(ids)));

/**
 * Those whose rights bound a run besides the owner: the workflow's actor, a manual run's caller, and whoever asked
 * for a failed run to be tried again (`retried_by`, functions/udwf/retry.ts), each once, never the owner. One who is disabled or deleted stops the run with an error saying so: the workflow does nothing
 * until someone with the rights saves or enables it again.
 */
export async function actingUsers(db: Db, workflowId: string, ownerId: string, input: Record<string, unknown>): Promise<Acting[]> {
  const wf = await db.select({ actor: udwfWorkflows.actor }).from(udwfWorkflows).where(eq(udwfWorkflows.workflowId, workflowId)).get();
  const wanted = new Map<string, Acting["role"]>();
  if (wf?.actor && wf.actor !== ownerId) wanted.set(wf.actor, "actor");
  const by = input.source === "manual" && typeof input.by === "string" ? input.by : null;
  if (by && by !== ownerId && !wanted.has(by)) wanted.set(by, "caller");
  const retrier = typeof input.retried_by === "string" ? input.retried_by : null;
  if (retrier && retrier !== ownerId && !wanted.has(retrier)) wanted.set(retrier, "retrier");
  if (!wanted.size) return [];
  const rows = await usersQuery(db, [...wanted.keys()]);
  const out: Acting[] = [];
  for (const [id, role] of wanted) {
    const row = rows.find((r) => r.userId === id);
    if (!row?.enabled) {
      throw new ApiError(
        "forbidden",
        row
          ? `Пользователь «${row.userName}», который ${roleText[role]}, отключён или удалён: автоматизация не действует, пока её не включит заново тот, у кого есть права`
          : `Пользователь, который ${roleText[role]}, отключён или удалён: автоматизация не действует, пока её не включит заново тот, у кого есть права`,
      );
    }
    const { enabled: _enabled, ...user } = row;
    out.push({ user: { ...user, sessionId: "automation" }, role });
  }
  return out;
}

/** The refusal of a step for one whose rights bound the run. */
export const actingDenied = (a: Acting, permission: Permission, what: string) =>
  new ApiError(
    "forbidden",
    `Недостаточно прав у «${a.user.userName}», который ${roleText[a.role]}: нужно право «${permission}» на ${what}`,
  );

/**
 * Checks a step against everyone in `acting` (the owner is checked by the step's own service call): the rights it
 * needs on the run's subject and on the group it names.
 */
export async function requireActing(db: Db, acting: Acting[], step: Step, subject: { id: string } | null) {
  if (!acting.length) return;
  const needs = stepNeeds(step);
  const ids = [...(subject ? [subject.id] : []), ...(needs.target ? [needs.target.id] : [])];
  if (!ids.length) return;
  const objects = await resolveObjects(db, ids);
  for (const a of acting) {
    const ctx = await accessContext(db, a.user);
    // A subject that is gone is the owner's service call's "not found", not a right someone lacks.
    if (subject && objects.has(subject.id)) {
      const miss = lacking(ctx, objects.get(subject.id), needs.subject);
      if (miss) throw actingDenied(a, miss, "объект запуска");
    }
    if (needs.target) {
      const miss = lacking(ctx, objects.get(needs.target.id), [needs.target.permission]);
      if (miss) throw actingDenied(a, miss, "группу, в которую идёт шаг");
    }
  }
}

/**
 * What a setup names, checked against the people it will act for (docs/decisions/025): the trigger's group and the
 * groups conditions name must be readable, a step's target group must give the step's right, and with a trigger
 * group every step needs its rights on the files there. `saver` is the one saving or enabling it (an admin passes
 * everything, the owner is checked all the same). Answers one detail per problem, naming the step; the caller
 * answers them with a 403.
 */
export async function reachProblems(db: Db, wf: UdwfWorkflow, setup: SetupBody, saver: AuthUser): Promise<ErrorDetail[]> {
  const refs: { id: string; permission: Permission; field: string }[] = [];
  const t = setup.trigger;
  if (t.group_id) refs.push({ id: t.group_id, permission: "read", field: "trigger.group_id" });
  const conditions = [
    ...setup.conditions.map((c, i) => ({ c, at: `conditions.${i}` })),
    ...setup.steps.flatMap((s, i) => (s.action === "stop-if" ? [{ c: s.params.condition, at: `steps.${i}.params.condition` }] : [])),
  ];
  for (const { c, at } of conditions)
    if (c.on === "group" && typeof c.value === "string") refs.push({ id: c.value, permission: "read", field: `${at}.value` });
  const needs = setup.steps.map(stepNeeds);
  needs.forEach((n, i) => {
    if (n.target) refs.push({ id: n.target.id, permission: n.target.permission, field: `steps.${i}.params.to` });
  });
  // With a trigger group, every step acts on files and groups under it: its rights there are checked now.
  const scoped = t.group_id && t.type !== "manual" && t.type !== "schedule" && t.type !== "webhook" ? t.group_id : null;
  if (!refs.length) return [];
  const owner = wf.owner === saver.userId ? saver : await ownerAuth(db, wf.owner);
  if (!owner) throw new ApiError("conflict", "Владелец автоматизации отключён: она не может действовать");
  const people: { ctx: AccessContext; who: "you" | "owner" }[] = [{ ctx: await accessContext(db, saver), who: "you" }];
  if (owner !== saver) people.push({ ctx: await accessContext(db, owner), who: "owner" });
  const objects = await resolveObjects(
    db,
    refs.map((r) => r.id),
  );
  const details: ErrorDetail[] = [];
  const reported = new Set<string>();
  const report = (field: string, message: string) => {
    if (reported.has(field)) return;
    reported.add(field);
    details.push({ field, message });
  };
  for (const { ctx, who } of people) {
    for (const r of refs) {
      const obj = objects.get(r.id);
      const miss = lacking(ctx, obj?.type === "group" ? obj : undefined, [r.permission]);
      if (!miss) continue;
      // To the saver a group they cannot see and a missing one read the same; the owner's gap is told only about
      // groups the saver sees.
      if (who === "you")
        report(r.field, miss === "read" ? "нет такой группы или у вас нет к ней доступа" : `у вас нет права «${miss}» на эту группу`);
      else report(r.field, `у владельца автоматизации нет права «${miss}» на эту группу`);
    }
    const scope = scoped ? objects.get(scoped) : undefined;
    if (scope?.type === "group" && permissionsOn(ctx, scope)) {
      needs.forEach((n, i) => {
        const miss = lacking(ctx, scope, n.subject);
        if (miss)
          report(
            `steps.${i}`,
            who === "you"
              ? `у вас нет права «${miss}» на файлы группы, за которой следит запуск`
              : `у владельца автоматизации нет права «${miss}» на файлы группы, за которой следит запуск`,
          );
      });
    }
  }
  return details;
}

/** The 403 for a setup that names what its saver (or owner) cannot reach: every problem, each naming its step. */
export function unreachable(details: ErrorDetail[]): ApiError {
  const summary = details
    .slice(0, 5)
    .map((d) => `«${d.field}»: ${d.message}`)
    .join("; ");
  return new ApiError("forbidden", `Недостаточно прав: ${summary}${details.length > 5 ? "; …" : ""}`, details);
}
