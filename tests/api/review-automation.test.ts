import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { entityTags, udwfRuns } from "../../db/schema";
import { call, db, uniq, type Person } from "./fixtures";
import { reviewWorld } from "./review.helpers";
import { mkTag } from "./tags.helpers";

/** The trigger review.status-changed and the step review.request (docs/decisions/061-review-and-approval.md). */

async function workflow(owner: Person, setup: unknown) {
  const id = (await call("/api/udwf/workflow", { method: "POST", bearer: owner.bearer, json: { name: uniq("Согласование") } })).body
    .workflow_id as string;
  const r = await call(`/api/udwf/workflow-setup/${id}`, { method: "PATCH", bearer: owner.bearer, json: setup });
  expect(r.status, r.text).toBe(200);
  const on = await call(`/api/udwf/workflow-enable-disable/${id}`, { method: "POST", bearer: owner.bearer, json: { enabled: true } });
  expect(on.status, on.text).toBe(200);
  return id;
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>): Promise<T> {
  const end = Date.now() + 30_000;
  for (;;) {
    const got = await probe();
    if (got) return got;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const runsOf = (wf: string) => db().select().from(udwfRuns).where(eq(udwfRuns.workflowId, wf)).all();

describe("review automations", () => {
  it("a status change starts the workflows listening for that status; review.request adds reviewers", async () => {
    const w = await reviewWorld();
    const tag = await mkTag(uniq("Одобрено"));
    const onApproved = await workflow(w.editor, {
      trigger: { type: "review.status-changed", group_id: w.group, review_status: "approved" },
      steps: [{ action: "tag.add", params: { tag_id: tag } }],
    });
    const onChanges = await workflow(w.editor, {
      trigger: { type: "review.status-changed", review_status: "changes_requested" },
      steps: [{ action: "review.request", params: { reviewers: [w.reader2.id], all_must_approve: true, due_days: 3 } }],
    });
    expect(
      (await call("/api/review/requests", { method: "POST", json: { asset_id: w.id, reviewers: [w.reader.id] }, bearer: w.editor.bearer }))
        .status,
    ).toBe(200);
    const decide = (p: Person, status: string) =>
      call(`/api/review/approval/${w.id}`, { method: "POST", json: { status }, bearer: p.bearer });
    expect((await decide(w.reader, "changes_requested")).status).toBe(200);
    const run = await until("the review.request run", async () => (await runsOf(onChanges)).find((r) => r.status === "done"));
    expect(run.input).toMatchObject({ event: { kind: "review.status-changed", data: { to: "changes_requested", version: 1 } } });
    const round = (await call(`/api/review/approval/${w.id}`, { bearer: w.reader.bearer })).body;
    expect(round.reviewers.map((r: { user_id: string }) => r.user_id)).toEqual([w.reader.id, w.reader2.id]);
    expect(round.all_must_approve).toBe(true);
    expect(round.due).toBeGreaterThan(Date.now() / 1000);
    expect(await runsOf(onApproved)).toEqual([]);
    expect((await decide(w.reader, "approved")).body.overall).toBe("pending");
    expect((await decide(w.reader2, "approved")).body.overall).toBe("approved");
    await until("the tag", async () =>
      (await db().select().from(entityTags).where(eq(entityTags.entityId, w.id)).all()).some((t) => t.tagId === tag),
    );
    expect((await runsOf(onApproved)).map((r) => r.status)).toEqual(["done"]);
  });

  it("the trigger's status filter is validated", async () => {
    const w = await reviewWorld();
    const id = (await call("/api/udwf/workflow", { method: "POST", bearer: w.editor.bearer, json: { name: uniq("Согласование") } })).body
      .workflow_id;
    const r = await call(`/api/udwf/workflow-setup/${id}`, {
      method: "PATCH",
      bearer: w.editor.bearer,
      json: {
        trigger: { type: "review.status-changed", review_status: "done" },
        steps: [{ action: "stop-if", params: { condition: { on: "size", op: "gt", value: 0 } } }],
      },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.details.map((d: { field: string }) => d.field)).toEqual(["trigger.review_status"]);
  });
});
