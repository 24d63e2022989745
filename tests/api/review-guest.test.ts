import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { shareLinks, users } from "../../db/schema";
import type { AuthUser, Env } from "../../functions/lib/env";
import { createRequest } from "../../functions/review/approval";
import { mailCode, openGuest } from "../../functions/review/guest";
import { codeWindow, emailCode } from "../../functions/review/guest-session";
import { requestBody } from "../../shared/review/schemas";
import { admin, call, db, grant, mkPerson } from "./fixtures";
import { comment, listOf, reviewWorld, setProxyRate } from "./review.helpers";
import { Guest, invite, linkIdOf, outside } from "./review-guest.helpers";

/**
 * External reviewers (docs/decisions/061-review-and-approval.md, "External reviewers"): an address that is nobody's
 * login gets a review link; its guest names themself, comments at frames, replies and decides as that reviewer.
 * The attacker's side: review-guest-attacks.test.ts.
 */

const approvalOf = async (assetId: string, bearer: string) => {
  const r = await call(`/api/review/approval/${assetId}`, { bearer });
  expect(r.status, r.text).toBe(200);
  return r.body;
};

type Sent = { to: string; subject: string; text: string };
const mailbox = () => {
  const sent: Sent[] = [];
  return { sent, send: async (m: Sent) => void sent.push(m) };
};

describe("review links for e-mail reviewers without an account", () => {
  it("an outside address gets a review link (view only, no download unless granted), answered and mailed; a second request answers the same link", async () => {
    const w = await reviewWorld();
    const guest = outside();
    const r = await invite({ asset_id: w.id, reviewers: [w.reader.id, guest.toUpperCase()] });
    expect(r.status, r.text).toBe(200);
    expect(r.body.links).toHaveLength(1);
    expect(r.body.links[0].email).toBe(guest);
    expect(r.body.links[0].url).toMatch(/^http:\/\/mam\.test\/review\/[0-9A-Za-z]{22}$/);
    const link = (await db()
      .select()
      .from(shareLinks)
      .where(eq(shareLinks.linkId, linkIdOf(r.body.links[0].url)))
      .get())!;
    expect(link).toMatchObject({
      kind: "review",
      reviewVersion: 1,
      acl: ["view"],
      emails: [guest],
      confirmEmail: false,
      passwordHash: null,
    });

    const a = await approvalOf(w.id, await admin());
    const mine = a.reviewers.find((x: any) => x.guest);
    expect(mine).toMatchObject({ user_id: link.reviewerId, requested: true, email: guest, status: "pending" });
    // Readers see the guest in the round, not their address.
    expect((await approvalOf(w.id, w.reader.bearer)).reviewers.find((x: any) => x.guest).email).toBeNull();

    const again = await invite({ asset_id: w.id, reviewers: [guest] });
    expect(again.body.links).toEqual(r.body.links);
    const withDownload = await invite({ asset_id: w.id, reviewers: [outside()], allow_download: true, expires_at: 4_000_000_000 });
    const dl = (await db()
      .select()
      .from(shareLinks)
      .where(eq(shareLinks.linkId, linkIdOf(withDownload.body.links[0].url)))
      .get())!;
    expect(dl).toMatchObject({ acl: ["view", "download_proxy"], endsAt: 4_000_000_000 });
  });

  it("inviting an outsider needs acl on the asset (it hands out access), downloads need download; a past expiry is a 400", async () => {
    const w = await reviewWorld();
    const denied = await invite({ asset_id: w.id, reviewers: [w.reader.id, outside()] }, w.editor.bearer);
    expect(denied.status).toBe(403);
    expect(denied.body.error.details[0].field).toBe("reviewers.1");
    const sharer = await mkPerson();
    await grant(sharer.id, w.group, ["read", "update", "acl"]);
    const noDownload = await invite({ asset_id: w.id, reviewers: [outside()], allow_download: true }, sharer.bearer);
    expect(noDownload.status).toBe(403);
    expect(noDownload.body.error.details[0].field).toBe("allow_download");
    const past = await invite({ asset_id: w.id, reviewers: [outside()], expires_at: 1000 }, sharer.bearer);
    expect(past.status).toBe(400);
    expect(past.body.error.details[0].field).toBe("expires_at");
    expect((await invite({ asset_id: w.id, reviewers: [outside()] }, sharer.bearer)).status).toBe(200);
  });

  it("the guest names themself once, comments at a frame and replies under that name, and approves as the requested reviewer", async () => {
    const w = await reviewWorld();
    await setProxyRate(w.id, 1, "25/1");
    const team = await comment(w.editor.bearer, { asset_id: w.id, body: "Проверьте титры", at: { seconds: 1 } });
    const g = await Guest.invited({ asset_id: w.id, reviewers: [outside()] });

    const before = await g.call("");
    expect(before.status, before.text).toBe(200);
    expect(before.headers.get("Cache-Control")).toBe("private, no-store");
    expect(before.body).toMatchObject({ unlocked: true, version: 1, rate: { fps_num: 25, fps_den: 1 }, download: null });
    expect(before.body.asset.name).toBe(w.name);
    expect(before.body.play).toBe(`/api/sl/${g.linkId}/play`);
    expect(before.body.guest).toMatchObject({ name: null, confirm_email: false, email_confirmed: true });
    expect(before.body.guest.email).toMatch(/^g\*\*\*@outside\.example$/);
    expect((await g.call("/comments", { method: "POST", json: { body: "без имени" } })).status).toBe(403);

    await g.named("Ольга из агентства");
    expect((await g.call("")).body.guest.name).toBe("Ольга из агентства");
    const own = await g.comment({ body: "Логотип мелковат", at: { frame: 50, fps_num: 25, fps_den: 1 } });
    const reply = await g.comment({ body: "Согласна", parent_id: team });

    const seen = await listOf(w.id, w.editor.bearer);
    const mine = seen.items.find((c) => c.comment_id === own);
    expect(mine.author).toMatchObject({ name: "Ольга из агентства", guest: true });
    expect(mine).toMatchObject({ internal: false, at: { frame: 50, timecode: "00:00:02:00" } });
    const thread = seen.items.find((c) => c.comment_id === team);
    expect(thread.replies[0]).toMatchObject({ comment_id: reply, author: { name: "Ольга из агентства", guest: true } });

    const decided = await g.call("/approval", { method: "POST", json: { status: "approved", note: "Можно" } });
    expect(decided.status, decided.text).toBe(200);
    expect(decided.body).toMatchObject({ overall: "approved", status: "approved" });
    const a = await approvalOf(w.id, w.editor.bearer);
    expect(a.overall).toBe("approved");
    expect(a.reviewers.find((x: any) => x.guest)).toMatchObject({ name: "Ольга из агентства", status: "approved", note: "Можно" });
    expect(a.decisions.at(-1)).toMatchObject({ name: "Ольга из агентства", guest: true, status: "approved" });

    // Their own comment: edited and deleted by them.
    expect((await g.call(`/comments/${own}`, { method: "PATCH", json: { body: "Логотип мелковат, увеличить" } })).status).toBe(200);
    expect((await g.call(`/comments/${own}`, { method: "PATCH", json: { resolved: true } })).status).toBe(200);
    expect((await g.call(`/comments/${own}`, { method: "DELETE" })).status).toBe(200);
    expect((await listOf(w.id, w.editor.bearer)).items.some((c) => c.comment_id === own)).toBe(false);
  });

  it("with confirm_email the guest confirms the address by a mailed code before commenting", async () => {
    const w = await reviewWorld();
    const address = outside();
    const g = await Guest.invited({ asset_id: w.id, reviewers: [address], confirm_email: true });
    await g.named("Пётр");
    const early = await g.call("/comments", { method: "POST", json: { body: "рано" } });
    expect(early.status).toBe(403);
    expect(early.body.error.details[0].field).toBe("code");
    expect((await g.call("")).body.guest).toMatchObject({ confirm_email: true, email_confirmed: false });

    // The mail goes to the link's address through the one mail path, with the code.
    const box = mailbox();
    const mailEnv = { ...(env as unknown as Env), EMAIL: box as unknown as SendEmail };
    const now = Math.floor(Date.now() / 1000);
    await mailCode(db(), mailEnv, await openGuest(db(), mailEnv, g.linkId, g.cookie, now), now);
    expect(box.sent.map((m) => m.to)).toEqual([address]);
    const link = (await db().select().from(shareLinks).where(eq(shareLinks.linkId, g.linkId)).get())!;
    const code = await emailCode((env as unknown as Env).JWT_SECRET, link, codeWindow(now));
    expect(box.sent[0].subject).toContain(code);

    const wrong = code === "000000" ? "111111" : "000000";
    expect((await g.call("/confirm", { method: "POST", json: { code: wrong } })).status).toBe(403);
    expect((await g.call("/confirm", { method: "POST", json: { code: "12ab" } })).status).toBe(400);
    expect((await g.call("/confirm", { method: "POST", json: { code } })).status).toBe(200);
    expect((await g.call("")).body.guest.email_confirmed).toBe(true);
    await g.comment({ body: "теперь можно" });
  });

  it("the request mails each outside address its review link through the one mail path", async () => {
    const w = await reviewWorld();
    const box = mailbox();
    const mailEnv = { ...(env as unknown as Env), EMAIL: box as unknown as SendEmail };
    const u = (await db().select().from(users).where(eq(users.login, "admin")).get())!;
    const auth: AuthUser = {
      userId: u.userId,
      userName: "Админ",
      login: u.login,
      isAdmin: true,
      isRobot: false,
      chrootGroups: [],
      sessionId: "t",
    };
    const address = outside();
    const out = await createRequest(
      db(),
      mailEnv,
      auth,
      requestBody.parse({ asset_id: w.id, reviewers: [address] }),
      "https://mam.example",
    );
    expect(box.sent).toHaveLength(1);
    expect(box.sent[0].to).toBe(address);
    expect(box.sent[0].subject).toContain(`«${w.name}»`);
    expect(box.sent[0].text).toContain(out.links[0].url);
    expect(out.links[0].url).toMatch(/^https:\/\/mam\.example\/review\//);
  });
});
