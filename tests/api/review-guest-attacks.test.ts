import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { reviewDecisions, shareLinks } from "../../db/schema";
import { admin, call, db } from "./fixtures";
import { comment, listOf, newVersion, reviewWorld } from "./review.helpers";
import { Guest, invite, linkIdOf, outside } from "./review-guest.helpers";

/**
 * A review link's guest as an attacker (docs/decisions/061-review-and-approval.md, "External reviewers"): the link
 * grants read on one asset within one version's round, comments and decisions as one reviewer, and nothing else.
 */

/** A world with a guest (named) of version 1 of one asset, team comments public and internal, and another asset. */
async function attackWorld() {
  const w = await reviewWorld();
  const other = await reviewWorld();
  const pub = await comment(w.editor.bearer, { asset_id: w.id, body: "для всех", page: 1 });
  const secret = await comment(w.editor.bearer, { asset_id: w.id, body: "ВНУТРЕННЕЕ-1", page: 1, internal: true });
  const secretReply = await comment(w.editor.bearer, { asset_id: w.id, body: "ВНУТРЕННИЙ-ОТВЕТ", parent_id: pub, internal: true });
  const underSecret = await comment(w.editor.bearer, { asset_id: w.id, body: "ОТВЕТ-ВО-ВНУТРЕННЕМ", parent_id: secret });
  const elsewhere = await comment(other.editor.bearer, { asset_id: other.id, body: "ЧУЖОЙ-ФАЙЛ", page: 1 });
  const g = await (await Guest.invited({ asset_id: w.id, reviewers: [outside()] })).named("Гость");
  return { w, other, pub, secret, secretReply, underSecret, elsewhere, g };
}

const hidden = ["ВНУТРЕННЕЕ", "ВНУТРЕННИЙ-ОТВЕТ", "ОТВЕТ-ВО-ВНУТРЕННЕМ", "ЧУЖОЙ-ФАЙЛ"];

describe("review link guests cannot reach beyond their link", () => {
  it("internal comments, their threads and other assets' comments never reach the guest; the team still sees them", async () => {
    const { w, pub, g } = await attackWorld();
    const list = await g.call("/comments");
    expect(list.status, list.text).toBe(200);
    expect(list.headers.get("Cache-Control")).toBe("private, no-store");
    expect(list.body.items.map((c: any) => c.comment_id)).toEqual([pub]);
    expect(list.body.items[0].replies).toEqual([]);
    for (const word of hidden) expect(list.text).not.toContain(word);
    // Other authors' ids are not handed out.
    expect(list.body.items[0].author).toMatchObject({ user_id: null, guest: false });
    expect((await listOf(w.id, w.editor.bearer)).items).toHaveLength(2);
    // The team's export carries internal comments; it is not the guest's: without a bearer it is refused.
    expect((await g.call(`/api/review/export/${w.id}?format=csv`)).status).toBe(401);
    expect((await g.call(`/api/review/comments?asset_id=${w.id}`)).status).toBe(401);
    // The link id is no bearer either.
    expect((await call(`/api/review/comments?asset_id=${w.id}`, { bearer: g.linkId })).status).toBe(401);
  });

  it("the guest cannot name another asset or version, mark a comment internal, nor answer an internal or foreign comment", async () => {
    const { other, secret, elsewhere, g } = await attackWorld();
    for (const extra of [{ asset_id: other.id }, { version: 1 }, { internal: true }, { internal: false }]) {
      const r = await g.call("/comments", { method: "POST", json: { body: "x", ...extra } });
      expect(r.status, JSON.stringify(extra)).toBe(400);
    }
    for (const parent of [secret, elsewhere]) {
      const r = await g.call("/comments", { method: "POST", json: { body: "ответ", parent_id: parent } });
      expect(r.status).toBe(400);
      expect(r.body.error.details[0].field).toBe("parent_id");
      expect(r.text).not.toContain("ВНУТРЕННЕЕ");
    }
  });

  it("another version's comments are out of reach: listed never, touched as missing", async () => {
    const { w, g } = await attackWorld();
    await newVersion(w.id);
    const v2 = await comment(w.editor.bearer, { asset_id: w.id, version: 2, body: "ВТОРАЯ-ВЕРСИЯ", page: 1 });
    const v2secret = await comment(w.editor.bearer, { asset_id: w.id, version: 2, body: "ВНУТРЕННЕЕ-2", page: 1, internal: true });
    const list = await g.call("/comments");
    expect(list.body.version).toBe(1);
    expect(list.text).not.toContain("ВТОРАЯ-ВЕРСИЯ");
    expect(list.text).not.toContain("ВНУТРЕННЕЕ-2");
    for (const id of [v2, v2secret]) {
      expect((await g.call(`/comments/${id}`, { method: "PATCH", json: { resolved: true } })).status).toBe(404);
      expect((await g.call(`/comments/${id}`, { method: "DELETE" })).status).toBe(404);
      expect((await g.call("/comments", { method: "POST", json: { body: "x", parent_id: id } })).status).toBe(400);
    }
  });

  it("others' comments cannot be resolved, edited or deleted; internal and foreign ones answer as missing", async () => {
    const { w, pub, secret, elsewhere, g } = await attackWorld();
    const peer = await (await Guest.invited({ asset_id: w.id, reviewers: [outside()] })).named("Другой гость");
    const peers = await peer.comment({ body: "мой" });
    for (const id of [pub, peers]) {
      expect((await g.call(`/comments/${id}`, { method: "PATCH", json: { resolved: true } })).status).toBe(403);
      expect((await g.call(`/comments/${id}`, { method: "PATCH", json: { body: "подмена" } })).status).toBe(403);
      expect((await g.call(`/comments/${id}`, { method: "DELETE" })).status).toBe(403);
    }
    for (const id of [secret, elsewhere, crypto.randomUUID()]) {
      const r = await g.call(`/comments/${id}`, { method: "PATCH", json: { resolved: true } });
      expect(r.status).toBe(404);
      expect((await g.call(`/comments/${id}`, { method: "DELETE" })).status).toBe(404);
    }
    const team = await listOf(w.id, w.editor.bearer);
    expect(team.items.find((c) => c.comment_id === pub).resolved).toBe(false);
    expect(team.items.some((c) => c.comment_id === peers)).toBe(true);
  });

  it("a guest decides only as their link's reviewer: no other reviewer, version or asset can be named, and sessions do not cross links", async () => {
    const { w, g } = await attackWorld();
    const peer = await Guest.invited({ asset_id: w.id, reviewers: [outside()], all_must_approve: true });
    for (const extra of [{ user_id: w.reader.id }, { version: 1 }, { asset_id: w.id }]) {
      const r = await g.call("/approval", { method: "POST", json: { status: "rejected", ...extra } });
      expect(r.status, JSON.stringify(extra)).toBe(400);
    }
    // g's session cookie sent to the peer's link: it names nobody there.
    const stolen = await g.call("/approval", { method: "POST", json: { status: "approved" }, linkId: peer.linkId });
    expect(stolen.status).toBe(403);
    expect((await g.call("/approval", { method: "POST", json: { status: "approved" } })).status).toBe(200);
    const a = (await call(`/api/review/approval/${w.id}`, { bearer: await admin() })).body;
    expect(a.overall).toBe("pending");
    const guests = a.reviewers.filter((r: any) => r.guest);
    expect(guests.map((r: any) => r.status).sort()).toEqual(["approved", "pending"]);
    const rows = await db().select().from(reviewDecisions).where(eq(reviewDecisions.assetId, w.id));
    expect(rows).toHaveLength(1);
  });

  it("a forged link or session, a share link of the other kind, a wrong password, expiry and revocation are refused", async () => {
    const { w, g } = await attackWorld();
    // A forged link id, and an id that is no link id at all.
    expect((await g.call("", { linkId: "A".repeat(22) })).status).toBe(404);
    expect((await g.call("", { linkId: "A".repeat(21) })).status).toBe(400);
    // A share link of the ordinary kind opens no review.
    const share = await call(`/api/sl/create/${w.id}`, { method: "POST", json: { acl: ["view"] }, bearer: await admin() });
    expect((await g.call("", { linkId: share.text })).status).toBe(404);
    // A session cookie edited (another name, or claiming a confirmed address) is no session.
    const [key, value] = [...g.cookies].find(([k]) => k.startsWith("mam_rv_"))!;
    const [exp, sig] = value.split(".");
    for (const forged of [
      `${exp}.${sig}.0.${btoa("Admin")}`,
      `${exp}.${sig}.1.${value.split(".")[3]}`,
      `${Number(exp) + 999}.${sig}.0.${value.split(".")[3]}`,
    ]) {
      const f = new Guest(g.linkId);
      f.cookies.set(key, forged);
      expect((await f.call("")).body.guest.name).toBeNull();
      expect((await f.call("/comments", { method: "POST", json: { body: "подделка" } })).status).toBe(403);
    }

    // A password: nothing before it, a wrong one refused, the right one opens.
    const locked = new Guest(
      linkIdOf((await invite({ asset_id: w.id, reviewers: [outside()], password: "пароль-для-гостя" })).body.links[0].url),
    );
    const info = await locked.call("");
    expect(info.body).toMatchObject({ unlocked: false, password_required: true, asset: null, play: null });
    expect(info.text).not.toContain(w.name);
    expect((await locked.call("/comments")).status).toBe(403);
    expect((await locked.call("/session", { method: "POST", json: { name: "x" } })).status).toBe(403);
    expect((await locked.call(`/api/sl/info/${locked.linkId}`, { method: "POST", json: { password: "неверный-пароль" } })).status).toBe(
      403,
    );
    expect((await locked.call("/comments")).status).toBe(403);
    expect((await locked.call(`/api/sl/info/${locked.linkId}`, { method: "POST", json: { password: "пароль-для-гостя" } })).status).toBe(
      200,
    );
    expect((await locked.call("/comments")).status).toBe(200);

    // Expiry and revocation end the link for every guest route and the player.
    await db().update(shareLinks).set({ endsAt: 1000 }).where(eq(shareLinks.linkId, locked.linkId));
    expect((await locked.call("/comments")).status).toBe(410);
    expect((await call(`/api/sl/${g.linkId}`, { method: "DELETE", bearer: await admin() })).status).toBe(200);
    for (const [path, method, json] of [
      ["", "GET", undefined],
      ["/comments", "GET", undefined],
      ["/comments", "POST", { body: "после отзыва" }],
      ["/approval", "POST", { status: "approved" }],
      [`/api/sl/${g.linkId}/play`, "GET", undefined],
    ] as const) {
      const r = await g.call(path, { method, json });
      expect(r.status, path).toBe(410);
    }
  });

  it("the player behind a review link is never stored on the way, and plays the link's version", async () => {
    const { g } = await attackWorld();
    const r = await g.call(`/api/sl/${g.linkId}/play`);
    // The test asset has no proxy: the link allows viewing but has nothing to play.
    expect(r.status).toBe(403);
    expect((await g.call("")).headers.get("Cache-Control")).toBe("private, no-store");
  });
});
