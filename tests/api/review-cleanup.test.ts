import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { reviewComments, reviewDecisions, reviewInbox, reviewRequests, reviewReviewers, versions } from "../../db/schema";
import { admin, call, db } from "./fixtures";
import { comment, newVersion, reviewWorld } from "./review.helpers";

/**
 * A version's review goes with the version, an asset's with the asset (migration 0035's triggers,
 * docs/decisions/061-review-and-approval.md "Not built yet"): comments, decisions, requests and their reviewers, and
 * inbox items, however the version or the asset is deleted.
 */

/** A round on `version` of the world's asset: a comment mentioning the reader, a request to both readers, a decision. */
async function reviewed(w: Awaited<ReturnType<typeof reviewWorld>>, version: number) {
  await comment(w.editor.bearer, { asset_id: w.id, version, body: `@${w.reader.login} посмотри версию ${version}` });
  const asked = await call("/api/review/requests", {
    method: "POST",
    json: { asset_id: w.id, version, reviewers: [w.reader.id, w.reader2.id] },
    bearer: w.editor.bearer,
  });
  expect(asked.status, asked.text).toBe(200);
  const decided = await call(`/api/review/approval/${w.id}`, {
    method: "POST",
    json: { version, status: "approved" },
    bearer: w.reader.bearer,
  });
  expect(decided.status, decided.text).toBe(200);
}

/** How many rows of each review table the asset has, per version (0 for none). */
async function rowsOf(assetId: string, version: number) {
  const requestIds = (
    await db()
      .select({ id: reviewRequests.requestId })
      .from(reviewRequests)
      .where(and(eq(reviewRequests.assetId, assetId), eq(reviewRequests.version, version)))
  ).map((r) => r.id);
  const count = async (table: typeof reviewComments | typeof reviewDecisions | typeof reviewInbox) =>
    (
      await db()
        .select()
        .from(table)
        .where(and(eq(table.assetId, assetId), eq(table.version, version)))
    ).length;
  const reviewers = requestIds.length
    ? (await db().select().from(reviewReviewers).where(eq(reviewReviewers.requestId, requestIds[0]))).length
    : 0;
  return {
    comments: await count(reviewComments),
    decisions: await count(reviewDecisions),
    requests: requestIds.length,
    reviewers,
    inbox: await count(reviewInbox),
  };
}

const full = { comments: 1, decisions: 1, requests: 1, reviewers: 2, inbox: 3 };
const none = { comments: 0, decisions: 0, requests: 0, reviewers: 0, inbox: 0 };

describe("a deleted version or asset takes its review along", () => {
  it("a version's rows go with the version; the asset's others and another asset's stay; all go with the asset", async () => {
    const w = await reviewWorld();
    const other = await reviewWorld();
    await newVersion(w.id);
    for (const version of [1, 2]) await reviewed(w, version);
    await reviewed(other, 1);
    // One mention and two requests reach the inbox per version.
    expect(await rowsOf(w.id, 2)).toEqual(full);

    // A version deleted by any path (here the row itself, as the empty versions' clean-up and a merge do).
    await db()
      .delete(versions)
      .where(and(eq(versions.assetId, w.id), eq(versions.version, 2)));
    expect(await rowsOf(w.id, 2)).toEqual(none);
    expect(await rowsOf(w.id, 1)).toEqual(full);

    // The asset deleted through the API.
    const deleted = await call("/api/asset/delete-list", { method: "POST", json: { ids: [w.id] }, bearer: await admin() });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await rowsOf(w.id, 1)).toEqual(none);
    expect(await rowsOf(other.id, 1)).toEqual(full);
    const inbox = await call("/api/review/inbox", { bearer: w.reader.bearer });
    expect(inbox.status, inbox.text).toBe(200);
    expect(JSON.stringify(inbox.body)).not.toContain(w.id);
  });
});
