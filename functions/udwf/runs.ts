import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { shareLinks, udwfRuns, udwfSteps, udwfWorkflows, type UdwfRunStatus } from "../../db/schema";
import { accessContext, ownsOrAdmin, permissionsOn, resolveObjects, sharedAccess, type SharedAccess } from "../lib/access";
import { ownedOrShared } from "../lib/access-sql";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import { idList } from "../lib/sql";
import { maskedLinkId } from "../sl/tokens";
import { retriesAllowed } from "./run-failure";
import type { RunOut } from "../../shared/udwf/schemas";
import { sharesOf } from "./service";

/**
 * Run history: the runs of the workflows a caller may see (their own and those shared with them; an admin's: all).
 * Those it is shared with for view get statuses, timings and error classes only: inputs (incoming webhook payloads),
 * outputs (a created link's URL), logs (webhook answers) and error texts are left out of their answer. A share link's
 * id is shown only to those who may manage the link, as the file's link list does (docs/decisions/025-threat-model.md).
 */

const visible = async (db: Db, auth: AuthUser) =>
  ownedOrShared(
    await accessContext(db, auth),
    { id: udwfWorkflows.workflowId, owner: udwfWorkflows.owner },
    { table: "udwf_shares", key: "workflow_id" },
  );

const runColumns = {
  run_id: udwfRuns.runId,
  workflow_id: udwfRuns.workflowId,
  workflow_name: udwfWorkflows.name,
  owner: udwfWorkflows.owner,
  status: udwfRuns.status,
  depth: udwfRuns.depth,
  input: udwfRuns.input,
  error: udwfRuns.error,
  error_class: udwfRuns.errorClass,
  retries: udwfRuns.retries,
  ctime: udwfRuns.ctime,
  started_at: udwfRuns.startedAt,
  finished_at: udwfRuns.finishedAt,
  first_step_at: udwfRuns.firstStepAt,
};

type RunRow = {
  run_id: string;
  workflow_id: string;
  workflow_name: string;
  owner: string;
  status: UdwfRunStatus;
  depth: number;
  input: Record<string, unknown>;
  error: string | null;
  error_class: string | null;
  retries: number;
  ctime: number;
  started_at: number | null;
  finished_at: number | null;
  first_step_at: number | null;
};

/** The caller's access to each workflow of these runs (all visible to it: the list's filter said so). */
async function accessTo(db: Db, auth: AuthUser, rows: RunRow[]) {
  const byWf = new Map(rows.map((r) => [r.workflow_id, r.owner]));
  // Shares only matter for workflows the caller neither owns nor administers.
  const ctx = await accessContext(db, auth);
  const others = [...byWf].filter(([, owner]) => !ownsOrAdmin(ctx, owner)).map(([id]) => id);
  const shares = await sharesOf(db, others);
  const out = new Map<string, SharedAccess>();
  for (const [id, owner] of byWf) out.set(id, (await sharedAccess(db, auth, owner, shares.get(id) ?? [])) ?? "view");
  return out;
}

/** A run as the caller may see it: a viewer's answer leaves out the input and the error text. */
function runOut({ owner: _owner, input, error, ...rest }: RunRow, access: SharedAccess) {
  const run = { ...rest, retries_max: retriesAllowed({ input }) };
  return access === "view" ? run : { ...run, input, error };
}

export async function listRuns(db: Db, auth: AuthUser, q: { workflow?: string; status?: string; skip: number; take: number }) {
  const where = and(
    await visible(db, auth),
    q.workflow ? eq(udwfRuns.workflowId, q.workflow) : undefined,
    q.status ? eq(udwfRuns.status, q.status as never) : undefined,
  );
  const [items, total] = await db.batch([
    db
      .select(runColumns)
      .from(udwfRuns)
      .innerJoin(udwfWorkflows, eq(udwfWorkflows.workflowId, udwfRuns.workflowId))
      .where(where)
      .orderBy(desc(udwfRuns.ctime), desc(sql`${udwfRuns}.rowid`))
      .limit(q.take)
      .offset(q.skip),
    db
      .select({ n: sql<number>`COUNT(*)` })
      .from(udwfRuns)
      .innerJoin(udwfWorkflows, eq(udwfWorkflows.workflowId, udwfRuns.workflowId))
      .where(where),
  ]);
  const access = await accessTo(db, auth, items);
  return { items: items.map((r) => runOut(r, access.get(r.workflow_id) ?? "view")), total: total[0]?.n ?? 0 };
}

/**
 * The ids of links these outputs name that the caller may not manage (neither their creator nor holding `acl` on
 * the file): they are left out of the outputs and masked in the logs and the error.
 */
async function unheldLinks(db: Db, auth: AuthUser, outputs: (Record<string, unknown> | null)[]) {
  const ids = outputs.map((o) => o?.link_id).filter((id): id is string => typeof id === "string");
  if (!ids.length || auth.isAdmin) return new Set<string>();
  const links = await db
    .select({ id: shareLinks.linkId, asset: shareLinks.assetId, creator: shareLinks.creator })
    .from(shareLinks)
    .where(inArray(shareLinks.linkId, idList(ids)));
  const [ctx, objects] = await Promise.all([
    accessContext(db, auth),
    resolveObjects(
      db,
      links.map((l) => l.asset),
    ),
  ]);
  const held = new Set(
    links
      .filter((l) => {
        const obj = objects.get(l.asset);
        return l.creator === auth.userId || (obj && permissionsOn(ctx, obj)?.includes("acl"));
      })
      .map((l) => l.id),
  );
  return new Set(ids.filter((id) => !held.has(id)));
}

export async function getRun(db: Db, auth: AuthUser, id: string): Promise<RunOut> {
  const [runs, steps] = await db.batch([
    db
      .select(runColumns)
      .from(udwfRuns)
      .innerJoin(udwfWorkflows, eq(udwfWorkflows.workflowId, udwfRuns.workflowId))
      .where(and(eq(udwfRuns.runId, id), await visible(db, auth))),
    db.select().from(udwfSteps).where(eq(udwfSteps.runId, id)).orderBy(asc(udwfSteps.step)),
  ]);
  const run = runs[0];
  if (!run) throw new ApiError("not_found", "Запуск не найден");
  const access = (await accessTo(db, auth, [run])).get(run.workflow_id) ?? "view";
  // A step that failed carries the run's class of failure (the runner records it on the run).
  // Viewers see each step's state; editors and owners also its output and log (in the middle, before the times).
  const stepOut = <X extends object>(s: (typeof steps)[number], more?: X) => ({
    step: s.step,
    action: s.action,
    status: s.status,
    attempts: s.attempts,
    error_class: s.status === "failed" ? run.error_class : null,
    ...more,
    started_at: s.startedAt,
    finished_at: s.finishedAt,
  });
  if (access === "view") return { ...runOut(run, access), steps: steps.map((s) => stepOut(s)) };
  const unheld =
    access === "owner"
      ? new Set<string>()
      : await unheldLinks(
          db,
          auth,
          steps.map((s) => s.output),
        );
  const scrub = (text: string) => [...unheld].reduce((t, link) => t.replaceAll(link, maskedLinkId(link)), text);
  const output = (o: Record<string, unknown> | null) =>
    o && typeof o.link_id === "string" && unheld.has(o.link_id) ? { ...o, link_id: null, url: null } : o;
  return {
    ...runOut(run, access),
    error: run.error ? scrub(run.error) : null,
    steps: steps.map((s) => stepOut(s, { output: output(s.output ?? null), log: s.log.map(scrub) })),
  };
}
