import { describe, expect, it } from "vitest";
import { call } from "./fixtures";
import { eventsOf, fieldsOf, newVersion, reviewWorld } from "./review.helpers";

/** /api/review/requests and /api/review/approval (docs/decisions/061-review-and-approval.md): rounds per version. */

const request = (bearer: string, json: Record<string, unknown>) => call("/api/review/requests", { method: "POST", json, bearer });
const decide = (assetId: string, bearer: string, json: Record<string, unknown>) =>
  call(`/api/review/approval/${assetId}`, { method: "POST", json, bearer });
const approval = async (assetId: string, bearer: string, version?: number) => {
  const r = await call(`/api/review/approval/${assetId}${version ? `?version=${version}` : ""}`, { bearer });
  expect(r.status, r.text).toBe(200);
  return r.body;
};

describe("review approval", () => {
  it("a reader decides only once asked; one approval is enough by default", async () => {
    const w = await reviewWorld();
    expect((await decide(w.id, w.reader.bearer, { status: "approved" })).status).toBe(403);
    expect((await decide(w.id, w.outsider.bearer, { status: "approved" })).status).toBe(404);
    expect((await request(w.reader.bearer, { asset_id: w.id, reviewers: [w.reader2.id] })).status).toBe(403);
    const asked = await request(w.editor.bearer, { asset_id: w.id, reviewers: [w.reader.id, w.reader2.id] });
    expect(asked.status, asked.text).toBe(200);
    expect(asked.body).toMatchObject({ version: 1, links: [] });
    expect(await approval(w.id, w.reader.bearer)).toMatchObject({
      version: 1,
      request_id: asked.body.request_id,
      overall: "pending",
      all_must_approve: false,
      reviewers: [
        { user_id: w.reader.id, requested: true, status: "pending" },
        { user_id: w.reader2.id, requested: true, status: "pending" },
      ],
    });
    const d = await decide(w.id, w.reader.bearer, { status: "approved", note: "хорошо" });
    expect(d.status, d.text).toBe(200);
    expect(d.body.overall).toBe("approved");
    expect(d.body.reviewers[0]).toMatchObject({ user_id: w.reader.id, status: "approved", note: "хорошо" });
    const changed = await eventsOf(w.id, "review.status-changed");
    expect(changed.map((e) => e.data)).toEqual([
      { version: 1, from: "pending", to: "approved", status: "approved", request_id: asked.body.request_id },
    ]);
  });

  it("with all_must_approve every requested reviewer must approve; a request for changes or a rejection wins", async () => {
    const w = await reviewWorld();
    const asked = await request(w.editor.bearer, {
      asset_id: w.id,
      version: 1,
      reviewers: [w.reader.id, w.reader2.id],
      all_must_approve: true,
      due: 2_000_000_000,
    });
    expect(asked.status, asked.text).toBe(200);
    expect((await decide(w.id, w.reader.bearer, { status: "approved" })).body.overall).toBe("pending");
    expect((await decide(w.id, w.reader2.bearer, { status: "approved" })).body.overall).toBe("approved");
    expect((await decide(w.id, w.reader2.bearer, { status: "changes_requested", note: "звук" })).body.overall).toBe("changes_requested");
    // An editor who was not asked may decide too (update on the asset).
    const rejected = await decide(w.id, w.editor.bearer, { status: "rejected" });
    expect(rejected.body).toMatchObject({ overall: "rejected", due: 2_000_000_000 });
    expect(rejected.body.reviewers.find((r: any) => r.user_id === w.editor.id)).toMatchObject({ requested: false, status: "rejected" });
    expect(rejected.body.decisions.map((x: any) => [x.user_id, x.status])).toEqual([
      [w.reader.id, "approved"],
      [w.reader2.id, "approved"],
      [w.reader2.id, "changes_requested"],
      [w.editor.id, "rejected"],
    ]);
    const moves = (await eventsOf(w.id, "review.status-changed")).map((e) => [e.data!.from, e.data!.to]);
    expect(moves).toEqual([
      ["pending", "approved"],
      ["approved", "changes_requested"],
      ["changes_requested", "rejected"],
    ]);
  });

  it("a new version starts a new round; the earlier round stays readable", async () => {
    const w = await reviewWorld();
    await request(w.editor.bearer, { asset_id: w.id, reviewers: [w.reader.id] });
    await decide(w.id, w.reader.bearer, { status: "changes_requested", note: "v1: темно" });
    await newVersion(w.id);
    const now = await approval(w.id, w.reader.bearer);
    expect(now).toMatchObject({ version: 2, request_id: null, overall: "pending", reviewers: [] });
    // Asked on version 1 only: not a reviewer of version 2.
    expect((await decide(w.id, w.reader.bearer, { status: "approved" })).status).toBe(403);
    const asked = await request(w.editor.bearer, { asset_id: w.id, reviewers: [w.reader.id] });
    expect(asked.body.version).toBe(2);
    expect((await decide(w.id, w.reader.bearer, { status: "approved" })).body.overall).toBe("approved");
    const all = await approval(w.id, w.reader.bearer);
    expect(all.rounds.map((r: any) => [r.version, r.overall])).toEqual([
      [2, "approved"],
      [1, "changes_requested"],
    ]);
    const v1 = await approval(w.id, w.reader.bearer, 1);
    expect(v1).toMatchObject({ version: 1, overall: "changes_requested" });
    expect(v1.decisions).toMatchObject([{ user_id: w.reader.id, status: "changes_requested", note: "v1: темно" }]);
  });

  it("a second request adds reviewers to the round; reviewers must exist and be able to read the file", async () => {
    const w = await reviewWorld();
    const first = await request(w.editor.bearer, { asset_id: w.id, reviewers: [w.reader.id] });
    const second = await request(w.editor.bearer, { asset_id: w.id, reviewers: [w.reader2.id, w.reader.id], all_must_approve: true });
    expect(second.body.request_id).toBe(first.body.request_id);
    const a = await approval(w.id, w.editor.bearer);
    expect(a.reviewers.map((r: any) => r.user_id)).toEqual([w.reader.id, w.reader2.id]);
    expect(a.all_must_approve).toBe(true);
    const bad = await request(w.editor.bearer, {
      asset_id: w.id,
      reviewers: [w.reader.id, w.outsider.id, "someone@example.com", "00000000-0000-4000-8000-000000000000", "кто-то"],
    });
    // An address that is nobody's login is an external reviewer (a review link: review-guest.test.ts), not an error.
    expect(fieldsOf(bad)).toEqual(["reviewers.1", "reviewers.3", "reviewers.4"]);
    expect(fieldsOf(await request(w.editor.bearer, { asset_id: w.id, reviewers: [] }))).toEqual(["reviewers"]);
    expect(fieldsOf(await decide(w.id, w.editor.bearer, { status: "ok" }))).toEqual(["status"]);
    expect(fieldsOf(await decide(w.id, w.editor.bearer, { status: "approved", version: 9 }))).toEqual(["version"]);
  });
});
