import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { shareLinks } from "../../db/schema";
import { admin, call, db, grant, mkPerson } from "./fixtures";
import { reviewWorld } from "./review.helpers";
import { Guest, invite, linkIdOf, outside } from "./review-guest.helpers";

/**
 * Review links among the asset's share links (docs/decisions/061-review-and-approval.md, "Requesting review in the
 * viewer"): listed with their kind, their reviewer's address for those who manage them, and no edit turns one into
 * a share link (the original's download) or another person's link.
 */

async function world(extra: Record<string, unknown> = {}) {
  const w = await reviewWorld();
  const email = outside();
  const r = await invite({ asset_id: w.id, reviewers: [email], ...extra });
  expect(r.status, r.text).toBe(200);
  const share = await call(`/api/sl/create/${w.id}`, { method: "POST", json: { acl: ["view"] }, bearer: await admin() });
  expect(share.status, share.text).toBe(200);
  return { w, email, linkId: linkIdOf(r.body.links[0].url), shareId: share.text };
}

const row = (linkId: string) => db().select().from(shareLinks).where(eq(shareLinks.linkId, linkId)).get();

describe("review links in /api/sl/for-entity", () => {
  it("carry their kind and version; the reviewer's address shows to those who manage the link, never to a reader", async () => {
    const { w, email, linkId, shareId } = await world();
    const listed = await call(`/api/sl/for-entity/${w.id}`, { bearer: await admin() });
    expect(listed.status, listed.text).toBe(200);
    const review = listed.body.find((l: any) => l.link_id === linkId);
    const share = listed.body.find((l: any) => l.link_id === shareId);
    expect(review).toMatchObject({ kind: "review", review_version: 1, email: [email], acl: ["view"], manageable: true });
    expect(share).toMatchObject({ kind: "share", review_version: null });

    // A manager who did not make the link (acl on the group) sees whose it is.
    const manager = await mkPerson();
    await grant(manager.id, w.group, ["read", "acl"]);
    const managed = await call(`/api/sl/for-entity/${w.id}`, { bearer: manager.bearer });
    expect(managed.body.find((l: any) => l.link_id === linkId)).toMatchObject({ kind: "review", email: [email], manageable: true });

    // A reader gets neither a usable id nor the address.
    const read = await call(`/api/sl/for-entity/${w.id}`, { bearer: w.reader.bearer });
    expect(read.status).toBe(200);
    const masked = read.body.find((l: any) => l.kind === "review");
    expect(masked).toMatchObject({ manageable: false, email: [] });
    expect(read.text).not.toContain(linkId);
    expect(read.text).not.toContain(email);
  });
});

describe("PATCH /api/sl/{id} keeps a review link a review link", () => {
  it("refuses a change of its acl or address (409 naming the field) and the row stays as the request made it", async () => {
    const { linkId } = await world();
    const bearer = await admin();
    for (const [json, field] of [
      [{ acl: ["view", "download_original"] }, "acl"],
      [{ acl: ["download_original"] }, "acl"],
      [{ acl: ["view", "download_proxy"] }, "acl"],
      [{ email: ["attacker@evil.example"] }, "email"],
      [{ email: [] }, "email"],
      [{ password: "новый-пароль", acl: ["view", "download_original"] }, "acl"],
    ] as const) {
      const r = await call(`/api/sl/${linkId}`, { method: "PATCH", json, bearer });
      expect(r.status, JSON.stringify(json)).toBe(409);
      expect(r.body.error.details[0].field).toBe(field);
    }
    const after = await row(linkId);
    expect(after).toMatchObject({ kind: "review", acl: ["view"], passwordHash: null });
    expect(after?.emails).toHaveLength(1);
  });

  it("the original can never be downloaded through a review link, before or after an attempted widening", async () => {
    const { w, linkId } = await world();
    const g = new Guest(linkId);
    const before = await g.call(`/api/sl/${linkId}/download/original`);
    expect(before.status).toBe(403);
    await call(`/api/sl/${linkId}`, { method: "PATCH", json: { acl: ["view", "download_original"] }, bearer: await admin() });
    expect((await g.call(`/api/sl/${linkId}/download/original`)).status).toBe(403);
    const info = await g.call(`/api/sl/info/${linkId}`);
    expect(info.status).toBe(200);
    expect(info.body.download).toBeNull();
    // The share link of the same asset, made with the original's download, does hand it out: the refusal is the link's.
    const share = await call(`/api/sl/create/${w.id}`, {
      method: "POST",
      json: { acl: ["view", "download_original"] },
      bearer: await admin(),
    });
    expect((await g.call(`/api/sl/${share.text}/download/original`)).status).toBe(200);
  });

  it("its own values sent back, a new expiry or password are accepted; the password then guards the guest's routes", async () => {
    const { email, linkId } = await world({ allow_download: true });
    const bearer = await admin();
    const end = Math.floor(Date.now() / 1000) + 86_400;
    const r = await call(`/api/sl/${linkId}`, {
      method: "PATCH",
      json: { acl: ["download_proxy", "view"], email: [email], time_range: [null, end], password: "пароль-гостя" },
      bearer,
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ kind: "review", acl: ["view", "download_proxy"], email: [email], has_password: true });
    expect(r.body.time_range).toEqual([null, end]);
    const g = new Guest(linkId);
    expect((await g.call("/comments")).status).toBe(403);
    expect((await g.call(`/api/sl/info/${linkId}`, { method: "POST", json: { password: "пароль-гостя" } })).status).toBe(200);
    expect((await g.call("/comments")).status).toBe(200);
  });

  it("a share link's acl and addresses still change as before", async () => {
    const { shareId } = await world();
    const r = await call(`/api/sl/${shareId}`, {
      method: "PATCH",
      json: { acl: ["view", "download_proxy"], email: ["someone@example.com"] },
      bearer: await admin(),
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ kind: "share", acl: ["view", "download_proxy"], email: ["someone@example.com"] });
  });
});
