import { env, runInDurableObject, SELF } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { shareLinks, variants } from "../../db/schema";
import type { Attachment } from "../../functions/review/live-watcher";
import { finishMetadata } from "./duplicates.helpers";
import { admin, call, db } from "./fixtures";
import { api } from "./helpers";
import { comment, newVersion, reviewWorld } from "./review.helpers";
import { Guest, invite, linkIdOf, outside } from "./review-guest.helpers";
import { handedOverTask, T } from "./tasks.helpers";

/**
 * Review links' guests in the live room (docs/decisions/061-review-and-approval.md, "Guests in the live room"): a
 * ticket through the link, re-checked at connect; a guest's socket hears its version's visible comments as its list
 * shows them and never an internal one; every socket is closed (4001) once its time is up.
 */

type Socket = { ws: WebSocket; messages: any[]; closed: () => number | null };

const live = (assetId: string, ticket: string, upgrade = true) =>
  SELF.fetch(`http://mam.test/api/review/live/${assetId}?ticket=${encodeURIComponent(ticket)}`, {
    headers: upgrade ? { Upgrade: "websocket" } : {},
  });

async function join(assetId: string, ticket: string): Promise<Socket> {
  const r = await live(assetId, ticket);
  if (r.status !== 101) throw new Error(`upgrade: ${r.status} ${await r.text()}`);
  const ws = r.webSocket!;
  const messages: any[] = [];
  let closed: number | null = null;
  ws.addEventListener("message", (e) => messages.push(JSON.parse(String(e.data))));
  ws.addEventListener("close", (e) => {
    closed = e.code;
  });
  ws.accept();
  return { ws, messages, closed: () => closed };
}

const teamTicket = async (assetId: string, bearer: string) => {
  const r = await call(`/api/review/live-ticket/${assetId}`, { method: "POST", bearer });
  expect(r.status, r.text).toBe(200);
  return r.body.ticket as string;
};

const guestTicket = async (g: Guest) => {
  const r = await g.call("/live-ticket", { method: "POST" });
  expect(r.status, r.text).toBe(200);
  return r.body as { ticket: string; expires: number; asset_id: string; version: number };
};

const expect401 = async (assetId: string, ticket: string, what: string) => {
  const r = await live(assetId, ticket);
  expect(r.status, what).toBe(401);
  expect(r.webSocket, what).toBeNull();
  await r.body?.cancel();
};

const has = (s: Socket, pred: (m: any) => boolean) => s.messages.some(pred);
const commentText = (s: Socket) => JSON.stringify(s.messages.filter((m) => m.type !== "presence"));

describe("review link guests in the live room: tickets", () => {
  it("a guest gets a ticket through the link, named or not; the socket joins its asset's room", async () => {
    const w = await reviewWorld();
    const g = await Guest.invited({ asset_id: w.id, reviewers: [outside()] });
    const r = await g.call("/live-ticket", { method: "POST" });
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get("Cache-Control")).toBe("private, no-store");
    expect(r.body).toMatchObject({ asset_id: w.id, version: 1 });
    expect(r.body.expires).toBeGreaterThan(Date.now() / 1000 + 50);
    // A valid ticket without an upgrade is 426, as a signed-in reader's.
    const plain = await live(w.id, r.body.ticket, false);
    expect(plain.status).toBe(426);
    await plain.body?.cancel();
    // Unnamed: presence shows no name (the page puts a neutral word); named: the name given.
    const unnamed = await join(w.id, r.body.ticket);
    await expect.poll(() => has(unnamed, (m) => m.type === "presence" && m.watchers.length === 1)).toBe(true);
    expect(unnamed.messages.at(-1).watchers[0]).toMatchObject({ name: null, guest: true, frame: null });
    await g.named("Внешний рецензент");
    const named = await join(w.id, (await guestTicket(g)).ticket);
    await expect.poll(() => has(named, (m) => m.type === "presence" && m.watchers.length === 2)).toBe(true);
    expect(
      named.messages
        .at(-1)
        .watchers.map((x: any) => x.name)
        .sort(),
    ).toEqual(["Внешний рецензент", null].sort());
    unnamed.ws.close(1000);
    named.ws.close(1000);
  });

  it("no ticket for a locked, revoked or expired link; at connect: revoked, expired, a new password, another asset, forgeries are the same 401", async () => {
    const w = await reviewWorld();
    const other = await reviewWorld();
    const locked = new Guest(
      linkIdOf((await invite({ asset_id: w.id, reviewers: [outside()], password: "пароль-гостя-1" })).body.links[0].url),
    );
    expect((await locked.call("/live-ticket", { method: "POST" })).status).toBe(403);
    expect((await locked.call(`/api/sl/info/${locked.linkId}`, { method: "POST", json: { password: "пароль-гостя-1" } })).status).toBe(200);
    const lockedTicket = await guestTicket(locked);

    const g = await (await Guest.invited({ asset_id: w.id, reviewers: [outside()] })).named("Гость");
    const t = await guestTicket(g);
    // Another asset's room, even one the link's creator reads.
    await expect401(other.id, t.ticket, "another asset");
    // Forgeries: a flipped signature, another name or another link under this signature.
    const [, link, name64, exp, sig] = t.ticket.split(".");
    await expect401(
      w.id,
      t.ticket.replace(/.$/, (c) => (c === "0" ? "1" : "0")),
      "a flipped signature",
    );
    await expect401(w.id, `guest.${link}.${btoa("Admin").replace(/=+$/, "")}.${exp}.${sig}`, "another name");
    await expect401(w.id, `guest.${link}.${name64}.${Number(exp) + 3600}.${sig}`, "a lengthened expiry");
    await expect401(w.id, `guest.${locked.linkId}.${name64}.${exp}.${sig}`, "another link");
    // A team ticket's shape with the guest's parts is no session.
    await expect401(w.id, `${link}.${exp}.${sig}`, "a guest's parts as a session ticket");

    // The password changes after the ticket was given: the ticket ends with the unlock cookie.
    await db().update(shareLinks).set({ passwordHash: "scrypt$changed" }).where(eq(shareLinks.linkId, locked.linkId));
    await expect401(w.id, lockedTicket.ticket, "a changed password");

    // Expired after the ticket was given.
    const exp2 = await (await Guest.invited({ asset_id: w.id, reviewers: [outside()] })).named("Срочный");
    const t2 = await guestTicket(exp2);
    await db().update(shareLinks).set({ endsAt: 1000 }).where(eq(shareLinks.linkId, exp2.linkId));
    await expect401(w.id, t2.ticket, "an expired link");
    expect((await exp2.call("/live-ticket", { method: "POST" })).status).toBe(410);

    // Revoked after the ticket was given: the valid ticket no longer opens the room.
    const before = await live(w.id, t.ticket, false);
    expect(before.status).toBe(426);
    await before.body?.cancel();
    expect((await call(`/api/sl/${g.linkId}`, { method: "DELETE", bearer: await admin() })).status).toBe(200);
    await expect401(w.id, t.ticket, "a revoked link");
    expect((await g.call("/live-ticket", { method: "POST" })).status).toBe(410);
  });
});

describe("review link guests in the live room: what a guest hears", () => {
  it("a guest's socket never gets an internal comment or reply, nor another version's; a team socket in the room does", async () => {
    const w = await reviewWorld();
    const g = await (await Guest.invited({ asset_id: w.id, reviewers: [outside()] })).named("Гость-слушатель");
    const team = await join(w.id, await teamTicket(w.id, w.editor.bearer));
    const guest = await join(w.id, (await guestTicket(g)).ticket);
    await expect.poll(() => has(team, (m) => m.type === "presence" && m.watchers.length === 2)).toBe(true);
    await expect.poll(() => has(guest, (m) => m.type === "presence" && m.watchers.length === 2)).toBe(true);
    // Presence sent to a guest names the team by name only, as the guest's list does.
    const seen = guest.messages.findLast((m) => m.type === "presence").watchers;
    expect(seen.find((x: any) => !x.guest)).toMatchObject({ user_id: null, guest: false });
    expect(JSON.stringify(guest.messages)).not.toContain(w.editor.id);

    const pub = await comment(w.editor.bearer, { asset_id: w.id, body: "ПУБЛИЧНЫЙ", page: 1 });
    const secret = await comment(w.editor.bearer, { asset_id: w.id, body: "ВНУТРЕННЕЕ-1", page: 1, internal: true });
    const secretReply = await comment(w.editor.bearer, { asset_id: w.id, body: "ВНУТРЕННИЙ-ОТВЕТ", parent_id: pub, internal: true });
    const underSecret = await comment(w.editor.bearer, { asset_id: w.id, body: "ОТВЕТ-ВО-ВНУТРЕННЕМ", parent_id: secret });
    await newVersion(w.id);
    const v2 = await comment(w.editor.bearer, { asset_id: w.id, version: 2, body: "ВТОРАЯ-ВЕРСИЯ", page: 1 });
    // The public thread updated: its team message carries the internal reply, the guest's must not.
    expect((await call(`/api/review/comments/${pub}`, { method: "PATCH", json: { resolved: true }, bearer: w.editor.bearer })).status).toBe(
      200,
    );
    // Deleting the internal comment takes its reply along; the guest hears nothing of it.
    expect((await call(`/api/review/comments/${secret}`, { method: "DELETE", bearer: w.editor.bearer })).status).toBe(200);
    const own = await g.comment({ body: "ГОСТЕВОЙ" });
    const last = await comment(w.editor.bearer, { asset_id: w.id, version: 1, body: "ПОСЛЕДНИЙ", page: 2 });

    // The team hears everything; once it has the last message, the room has sent the guest all it ever will of these.
    for (const id of [pub, secret, secretReply, underSecret, v2, own, last])
      await expect.poll(() => has(team, (m) => m.comment?.comment_id === id), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => has(team, (m) => m.type === "comment.deleted" && m.comment.comment_id === secret)).toBe(true);
    await expect.poll(() => has(guest, (m) => m.comment?.comment_id === last)).toBe(true);

    const heard = commentText(guest);
    for (const word of ["ВНУТРЕННЕЕ", "ВНУТРЕННИЙ-ОТВЕТ", "ОТВЕТ-ВО-ВНУТРЕННЕМ", "ВТОРАЯ-ВЕРСИЯ", secret, secretReply, underSecret, v2])
      expect(heard).not.toContain(word);
    expect(heard).not.toContain(w.editor.id);
    // What the guest heard is what its list shows: the public thread (resolved, without the internal reply), its own comment with its id.
    const updated = guest.messages.findLast((m) => m.type === "comment.updated" && m.comment.comment_id === pub);
    const list = await g.call("/comments");
    const listed = list.body.items.find((c: any) => c.comment_id === pub);
    expect(updated.comment).toEqual(listed);
    const mine = guest.messages.find((m) => m.type === "comment.created" && m.comment.comment_id === own);
    expect(mine.comment).toEqual(list.body.items.find((c: any) => c.comment_id === own));
    expect(mine.comment.author.user_id).not.toBeNull();
    expect(commentText(team)).toContain("ВНУТРЕННИЙ-ОТВЕТ");

    // An approval change: the guest gets its API's shape (overall, its own decision), the team the round.
    expect((await g.call("/approval", { method: "POST", json: { status: "changes_requested", note: "правки" } })).status).toBe(200);
    await expect.poll(() => has(guest, (m) => m.type === "approval.changed")).toBe(true);
    const approval = guest.messages.find((m) => m.type === "approval.changed");
    expect(approval).toMatchObject({
      asset_id: w.id,
      version: 1,
      approval: { overall: "changes_requested", status: "changes_requested", note: "правки" },
    });
    expect(Object.keys(approval.approval).sort()).toEqual(["note", "overall", "status"]);
    expect(approval.decisions).toBeUndefined();
    await expect.poll(() => has(team, (m) => m.type === "approval.changed" && m.approval.overall === "changes_requested")).toBe(true);
    team.ws.close(1000);
    guest.ws.close(1000);
  });

  it("a socket past its time is closed with 4001 at the next broadcast and sent nothing more; the others go on", async () => {
    const w = await reviewWorld();
    const g = await (await Guest.invited({ asset_id: w.id, reviewers: [outside()] })).named("Гость");
    const team = await join(w.id, await teamTicket(w.id, w.editor.bearer));
    const guest = await join(w.id, (await guestTicket(g)).ticket);
    await expect.poll(() => has(team, (m) => m.type === "presence" && m.watchers.length === 2)).toBe(true);
    // Each socket was given a life of a few minutes at its ticket's check.
    const room = env.REVIEW_ROOM!.get(env.REVIEW_ROOM!.idFromName(w.id));
    const lives = await runInDurableObject(room, (_o, state) =>
      state.getWebSockets().map((ws) => (ws.deserializeAttachment() as Attachment).until - Date.now()),
    );
    for (const ms of lives) {
      expect(ms).toBeGreaterThan(4 * 60_000);
      expect(ms).toBeLessThanOrEqual(5 * 60_000);
    }
    // The guest's time runs out (as five minutes later).
    await runInDurableObject(room, (_o, state) => {
      for (const ws of state.getWebSockets()) {
        const a = ws.deserializeAttachment() as Attachment;
        if (a.guest) ws.serializeAttachment({ ...a, until: Date.now() - 1 });
      }
    });
    const heardBefore = guest.messages.length;
    await comment(w.editor.bearer, { asset_id: w.id, body: "ПОСЛЕ-СРОКА", page: 1 });
    await expect.poll(() => has(team, (m) => m.comment?.body === "ПОСЛЕ-СРОКА")).toBe(true);
    await expect.poll(() => guest.closed()).toBe(4001);
    expect(guest.messages.length).toBe(heardBefore);
    // The team is told the guest left; a fresh ticket brings the guest back.
    await expect.poll(() => has(team, (m) => m.type === "presence" && m.watchers.length === 1)).toBe(true);
    const back = await join(w.id, (await guestTicket(g)).ticket);
    await comment(w.editor.bearer, { asset_id: w.id, body: "СНОВА", page: 1 });
    await expect.poll(() => has(back, (m) => m.comment?.body === "СНОВА")).toBe(true);
    team.ws.close(1000);
    back.ws.close(1000);
  });
});

/** The version's original, as a task reads it. */
async function originalOf(assetId: string, version: number) {
  const v = await db()
    .select({ variantId: variants.variantId })
    .from(variants)
    .where(and(eq(variants.assetId, assetId), eq(variants.version, version), eq(variants.variantType, "initial")))
    .get();
  return { assetId, variantId: v!.variantId };
}

/** Plays the transcoder for a proxy task of the variant: the queue hands it over, the output is put, the result posted. */
async function finishProxy(a: { assetId: string; variantId: string }) {
  const job = await handedOverTask(a, T.proxyLow);
  const bytes = new TextEncoder().encode("a proxy");
  const headers = { "X-Task-Token": job.callback.token };
  const put = await api(job.outputs.proxy, {
    method: "PUT",
    headers: { ...headers, "Content-Type": "video/mp4", "Content-Length": String(bytes.length) },
    body: bytes as BodyInit,
  });
  expect(put.status, await put.clone().text()).toBe(200);
  const done = await api(`${job.callback.url}/result`, {
    method: "POST",
    headers,
    json: { run: job.run, outputs: [{ name: "proxy", mime: "video/mp4", format: "mp4" }] },
  });
  expect(done.status, await done.clone().text()).toBe(200);
}

describe("review link guests in the live room: a new rendition", () => {
  it("a finished proxy of the guest's version is told to the guest and the team; another version's only to the team; a task without outputs to nobody", async () => {
    const w = await reviewWorld();
    const g = await (await Guest.invited({ asset_id: w.id, reviewers: [outside()] })).named("Гость-ожидающий");
    const team = await join(w.id, await teamTicket(w.id, w.editor.bearer));
    const guest = await join(w.id, (await guestTicket(g)).ticket);
    await expect.poll(() => has(team, (m) => m.type === "presence" && m.watchers.length === 2)).toBe(true);
    const ready = (s: Socket, version: number) => has(s, (m) => m.type === "media.ready" && m.version === version);

    // A probe registers no rendition: nothing is told.
    const v1 = await originalOf(w.id, 1);
    await finishMetadata(v1, { duration: 4 });
    await finishProxy(v1);
    await expect.poll(() => ready(team, 1)).toBe(true);
    await expect.poll(() => ready(guest, 1)).toBe(true);
    expect(guest.messages.filter((m) => m.type === "media.ready")).toEqual([{ type: "media.ready", asset_id: w.id, version: 1 }]);

    await newVersion(w.id);
    await finishProxy(await originalOf(w.id, 2));
    await expect.poll(() => ready(team, 2)).toBe(true);
    // Once the guest has a later message of its own version, the room has sent it all it ever will of the proxy above.
    await comment(w.editor.bearer, { asset_id: w.id, version: 1, body: "ПОСЛЕ-ПРОКСИ", page: 1 });
    await expect.poll(() => has(guest, (m) => m.comment?.body === "ПОСЛЕ-ПРОКСИ")).toBe(true);
    expect(ready(guest, 2)).toBe(false);
    expect(team.messages.filter((m) => m.type === "media.ready").map((m) => m.version)).toEqual([1, 2]);
    team.ws.close(1000);
    guest.ws.close(1000);
  });
});
