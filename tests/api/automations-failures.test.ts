import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { udwfRuns, udwfWorkflows } from "../../db/schema";
import { mkAsset } from "./fields.helpers";
import { admin, call, db, grant, mkGroup, mkPerson, uniq, VIRTUAL_ROOT, type Person } from "./fixtures";

/**
 * A run that fails because of a bug (not a step's answer) is never left queued: each try is counted on the run with
 * its error, it ends failed with the error class, /api/metrics counts it, and «Повторить» starts it again
 * (docs/decisions/054). The queue retries at once here (vitest.config.ts).
 */

let owner: Person;
let group: string;
beforeAll(async () => {
  owner = await mkPerson();
  group = await mkGroup(VIRTUAL_ROOT);
  await grant(owner.id, group, ["read", "execute"]);
});

async function manualWorkflow() {
  const id = (await call("/api/udwf/workflow", { method: "POST", bearer: owner.bearer, json: { name: uniq("Сбой") } })).body
    .workflow_id as string;
  const steps = [{ action: "email.send", params: { to: ["ops@example.com"], subject: "Проверка", body: "{{run.id}}" } }];
  const r = await call(`/api/udwf/workflow-setup/${id}`, {
    method: "PATCH",
    bearer: owner.bearer,
    json: { trigger: { type: "manual" }, steps },
  });
  expect(r.status, r.text).toBe(200);
  return id;
}

async function settled(runId: string) {
  const end = Date.now() + 30_000;
  for (;;) {
    const run = await db().select().from(udwfRuns).where(eq(udwfRuns.runId, runId)).get();
    if (run && ["done", "failed", "stopped"].includes(run.status)) return run;
    if (Date.now() > end) throw new Error(`run ${runId} is still ${run?.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const metric = (text: string, line: string) =>
  Number(
    text
      .split("\n")
      .find((l) => l.startsWith(`${line} `))
      ?.split(" ")[1] ?? Number.NaN,
  );

describe("a run that fails on a bug", () => {
  it("counts each try with its error, ends failed with the class internal, shows in the metrics, and «Повторить» runs it again", async () => {
    const wf = await manualWorkflow();
    // A stored condition the code cannot read (a field condition without its field): every try throws outside any step.
    await db()
      .update(udwfWorkflows)
      .set({ conditions: [{ on: "field", op: "eq", value: 1 }] as never })
      .where(eq(udwfWorkflows.workflowId, wf));
    const asset = await mkAsset(group);
    const metricsBefore = (await call("/api/metrics", { bearer: await admin() })).text;
    const started = await call(`/api/udwf/execute/${wf}`, {
      method: "POST",
      bearer: owner.bearer,
      json: { entities: [{ id: asset, type: "asset" }] },
    });
    expect(started.status, started.text).toBe(200);
    const runId = started.body.run_id as string;
    const run = await settled(runId);
    expect(run.status).toBe("failed");
    expect(run.errorClass).toBe("internal");
    expect(run.error).toMatch(/^Внутренняя ошибка: .+ — все повторы исчерпаны$/);
    // One try and the queue's five retries, each counted.
    expect(run.retries).toBe(6);

    const detail = await call(`/api/udwf/run/${runId}`, { bearer: owner.bearer });
    expect(detail.body).toMatchObject({ status: "failed", error_class: "internal", retries: 6, retries_max: 5 });
    const metricsAfter = (await call("/api/metrics", { bearer: await admin() })).text;
    const failed = 'mam_workflow_runs_failed{error_class="internal"}';
    expect(metric(metricsAfter, failed)).toBe(metric(metricsBefore, failed) + 1);
    expect(metric(metricsAfter, "mam_workflow_run_retries")).toBeGreaterThanOrEqual(metric(metricsBefore, "mam_workflow_run_retries") + 6);

    // A viewer may not retry it; a stranger does not learn it exists; a run that has not failed is not retried.
    const stranger = await mkPerson();
    expect((await call(`/api/udwf/run/${runId}/retry`, { method: "POST", bearer: stranger.bearer })).status).toBe(404);

    // Mended, and retried: the same run ends done.
    await db().update(udwfWorkflows).set({ conditions: [] }).where(eq(udwfWorkflows.workflowId, wf));
    const retried = await call(`/api/udwf/run/${runId}/retry`, { method: "POST", bearer: owner.bearer });
    expect(retried.status, retried.text).toBe(200);
    const again = await settled(runId);
    expect(again).toMatchObject({ status: "done", error: null, errorClass: null, retries: 0 });
    const twice = await call(`/api/udwf/run/${runId}/retry`, { method: "POST", bearer: owner.bearer });
    expect(twice.status).toBe(409);
  }, 60_000);
});
