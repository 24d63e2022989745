import { and, asc, desc, eq, sql } from "drizzle-orm";
import { udwfRuns, udwfSteps, udwfWorkflows } from "../../db/schema";
import { accessContext } from "../lib/access";
import { ownedOrShared } from "../lib/access-sql";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import type { RunOut } from "./schemas";

/** Run history: the runs of the workflows a caller may see (their own and those shared with them; an admin's: all). */

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
  status: udwfRuns.status,
  depth: udwfRuns.depth,
  input: udwfRuns.input,
  error: udwfRuns.error,
  ctime: udwfRuns.ctime,
  started_at: udwfRuns.startedAt,
  finished_at: udwfRuns.finishedAt,
  first_step_at: udwfRuns.firstStepAt,
};

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
  return { items, total: total[0]?.n ?? 0 };
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
  if (!runs[0]) throw new ApiError("not_found", "Запуск не найден");
  return {
    ...runs[0],
    steps: steps.map((s) => ({
      step: s.step,
      action: s.action,
      status: s.status,
      attempts: s.attempts,
      output: s.output ?? null,
      log: s.log,
      started_at: s.startedAt,
      finished_at: s.finishedAt,
    })),
  };
}
