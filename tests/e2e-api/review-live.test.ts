import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import WebSocket from "ws";
import { afterAll, describe, expect, it } from "vitest";
import { type Client, makeClip } from "../media/media";
import { adminOf, personOf, servers, until } from "./runtime";

/**
 * The live review room on `npm start` (docs/decisions/061-review-and-approval.md, "Live room"): the Durable Object
 * runs in the local runtime, a watcher hears presence and every comment and approval change as the REST lists show
 * them, and a ticket opens only its own asset's room.
 */

let n = 0;
const uniq = (prefix: string) => `${prefix} ${Date.now().toString(36)}-${++n}`;

const clips = mkdtempSync(path.join(tmpdir(), "mam-review-live-"));
afterAll(() => rmSync(clips, { recursive: true, force: true }));

/** An asset with one small version in a fresh group (a text file: nothing to transcode). */
async function assetOf(admin: Client) {
  const { assetId, group, upload } = await emptyAssetOf(admin, "text/plain");
  await upload(Buffer.from("текст\n"), "s.txt");
  return { assetId, group };
}

/** An asset without a version yet in a fresh group, and the upload of its first. */
async function emptyAssetOf(admin: Client, mime: string) {
  const group = (
    await admin.call("/api/group/create", { json: { parent: "ffffffff-ffff-ffff-ffff-ffffffffffff", group_name: uniq("Ревью") } })
  ).group_id as string;
  const { asset_id } = await admin.call("/api/asset/create", {
    json: { asset_name: uniq("Сценарий"), asset_mime: mime, in_group: group },
  });
  return { assetId: asset_id as string, group, upload: (data: Buffer, name: string) => uploadVersion(admin, asset_id, data, name, mime) };
}

async function uploadVersion(admin: Client, asset_id: string, data: Buffer, name: string, mime: string) {
  const up = await admin.call("/api/ul/start", { json: { asset_id, size: data.length, name, mime } });
  const [target] = await admin.call(`/api/ul/${up.upload_id}/targets`, { json: { parts: [1] } });
  const put = await fetch(new URL(target.url, admin.url), { method: "PUT", body: new Uint8Array(data) });
  await admin.call(`/api/ul/${up.upload_id}/parts/1`, { json: { etag: put.headers.get("ETag") } });
  await admin.call(`/api/ul/${up.upload_id}/complete`, { method: "POST" });
}

/** Connects with a fresh ticket; keeps every message; answers the socket, or the refused upgrade's status. */
async function watch(client: Client, assetId: string, ticket?: string) {
  ticket ??= (await client.call(`/api/review/live-ticket/${assetId}`, { method: "POST" })).ticket as string;
  const ws = new WebSocket(`${client.url.replace("http", "ws")}/api/review/live/${assetId}?ticket=${encodeURIComponent(ticket)}`);
  const messages: any[] = [];
  ws.on("message", (raw) => messages.push(JSON.parse(String(raw))));
  const status = await new Promise<number>((resolve, reject) => {
    ws.once("open", () => resolve(101));
    ws.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    ws.once("error", reject);
  });
  return { ws, messages, status, ticket };
}

const last = (messages: any[], type: string, pred: (m: any) => boolean = () => true) =>
  messages.findLast((m) => m.type === type && pred(m));

describe.each(servers())("on $store", ({ url }) => {
  it("pushes presence, comments and approval changes to every watcher, as the REST lists show them", async () => {
    const admin = await adminOf(url);
    const { assetId, group } = await assetOf(admin);
    const reader = await personOf(admin);
    await admin.call("/api/user/acl", { json: { subj: reader.id, obj: group, acl: ["read"] } });

    const a = await watch(admin, assetId);
    const b = await watch(reader.client, assetId);
    expect([a.status, b.status]).toEqual([101, 101]);
    await until("both in the room", async () => last(a.messages, "presence", (m) => m.watchers.length === 2));

    // Presence: the reader pauses at frame 12; the admin hears it.
    b.ws.send(JSON.stringify({ type: "presence", frame: 12 }));
    await until("the reader's frame", async () =>
      last(a.messages, "presence", (m) => m.watchers.some((w: any) => w.user_id === reader.id && w.frame === 12)),
    );

    // A comment by the reader arrives at the admin exactly as the list shows it, then its reply, its resolution, its deletion.
    const { comment_id } = await reader.client.call("/api/review/comments", {
      json: { asset_id: assetId, body: "Смена плана", at: { frame: 50, fps_num: 25, fps_den: 1 } },
    });
    const created = await until("comment.created", async () =>
      last(a.messages, "comment.created", (m) => m.comment.comment_id === comment_id),
    );
    const list = await admin.call(`/api/review/comments?asset_id=${assetId}`);
    expect(created.comment).toEqual(list.items.find((c: any) => c.comment_id === comment_id));
    expect(created).toMatchObject({ asset_id: assetId, version: list.version });

    const reply = (await admin.call("/api/review/comments", { json: { asset_id: assetId, body: "Согласен", parent_id: comment_id } }))
      .comment_id;
    const replied = await until("the reply", async () => last(b.messages, "comment.created", (m) => m.comment.comment_id === reply));
    expect(replied.comment).toEqual((await admin.call(`/api/review/comments?asset_id=${assetId}`)).items[0].replies[0]);

    await admin.call(`/api/review/comments/${comment_id}`, { method: "PATCH", json: { resolved: true } });
    const updated = await until("comment.updated", async () => last(b.messages, "comment.updated", (m) => m.comment.resolved));
    expect(updated.comment).toEqual((await admin.call(`/api/review/comments?asset_id=${assetId}`)).items[0]);

    await reader.client.call(`/api/review/comments/${comment_id}`, { method: "DELETE" });
    const deleted = await until("comment.deleted", async () => last(a.messages, "comment.deleted"));
    expect(deleted.comment).toMatchObject({ comment_id, resolved: true, replies: [{ comment_id: reply }] });

    // Approval: a request and a decision, each as GET /api/review/approval answers.
    await admin.call("/api/review/requests", { json: { asset_id: assetId, reviewers: [reader.id] } });
    await until("the request", async () => last(b.messages, "approval.changed", (m) => m.approval.request_id));
    await reader.client.call(`/api/review/approval/${assetId}`, { json: { status: "changes_requested" } });
    const decided = await until("the decision", async () =>
      last(a.messages, "approval.changed", (m) => m.approval.overall === "changes_requested"),
    );
    expect(decided.approval).toEqual(await admin.call(`/api/review/approval/${assetId}`));

    // A watcher drops without a close frame: the room tells the rest and keeps serving them; it comes back.
    b.ws.terminate();
    await until("the room without the reader", async () => last(a.messages, "presence", (m) => m.watchers.length === 1));
    const back = await watch(reader.client, assetId);
    await until("the reader back", async () => last(a.messages, "presence", (m) => m.watchers.length === 2));
    const again = (await admin.call("/api/review/comments", { json: { asset_id: assetId, body: "Ещё одно" } })).comment_id;
    await until("the comment at the returned watcher", async () =>
      last(back.messages, "comment.created", (m) => m.comment.comment_id === again),
    );
    a.ws.close();
    back.ws.close();
  });

  it("tells the room of each rendition the transcoder makes (a preview, the proxies), and of nothing else", async () => {
    const admin = await adminOf(url);
    const { assetId, upload } = await emptyAssetOf(admin, "video/mp4");
    const a = await watch(admin, assetId);
    expect(a.status).toBe(101);
    await upload(readFileSync(makeClip(path.join(clips, `${uniq("clip")}.mp4`), 2, 320, 240)), "clip.mp4");
    // The upload's tasks: the probe (no output), the preview, two proxies (an output each).
    const tasks = await admin.waitTasks(assetId, 4, 150_000);
    expect(tasks.map((t) => t.status)).toEqual(["done", "done", "done", "done"]);
    const told = async () => a.messages.filter((m) => m.type === "media.ready");
    await until("three renditions told", async () => (await told()).length === 3);
    expect(await told()).toEqual(Array(3).fill({ type: "media.ready", asset_id: assetId, version: 1 }));
    a.ws.close();
  });

  it("opens a room only with a fresh ticket of that asset: forged, another asset's, no read, no ticket are refused", async () => {
    const admin = await adminOf(url);
    const mine = await assetOf(admin);
    const other = await assetOf(admin);
    const outsider = await personOf(admin);
    // No read: no ticket (404, as for a missing file).
    await expect(outsider.client.call(`/api/review/live-ticket/${mine.assetId}`, { method: "POST" })).rejects.toThrow(/: 404 /);

    const inside = await watch(admin, mine.assetId);
    const { ticket } = inside;
    expect((await watch(admin, other.assetId, ticket)).status).toBe(401);
    expect(
      (
        await watch(
          admin,
          mine.assetId,
          ticket.replace(/.$/, (c) => (c === "a" ? "b" : "a")),
        )
      ).status,
    ).toBe(401);
    expect((await watch(admin, mine.assetId, "")).status).toBe(401);
    // A plain GET with a valid ticket is not a room.
    expect((await fetch(`${url}/api/review/live/${mine.assetId}?ticket=${encodeURIComponent(ticket)}`)).status).toBe(426);

    // Nothing of another asset's room reaches this one.
    const there = await watch(admin, other.assetId);
    await admin.call("/api/review/comments", { json: { asset_id: other.assetId, body: "чужое" } });
    await until("the other room's comment", async () => last(there.messages, "comment.created"));
    const here = (await admin.call("/api/review/comments", { json: { asset_id: mine.assetId, body: "своё" } })).comment_id;
    await until("this room's comment", async () => last(inside.messages, "comment.created"));
    expect(inside.messages.filter((m) => m.type === "comment.created").map((m) => m.comment.comment_id)).toEqual([here]);
    inside.ws.close();
    there.ws.close();
  });

  it("a review link's guest joins through the link: hears the visible comments and the approval, never internal ones", async () => {
    const admin = await adminOf(url);
    const { assetId } = await assetOf(admin);
    const team = await watch(admin, assetId);
    const { links } = await admin.call("/api/review/requests", {
      json: { asset_id: assetId, reviewers: [`guest-${Date.now().toString(36)}@outside.example`] },
    });
    const linkId = String(links[0].url).split("/").pop()!;
    let cookie = "";
    const guestCall = async (path: string, json?: unknown) => {
      const r = await fetch(`${url}/api/review/guest/${linkId}${path}`, {
        method: json === undefined && path !== "/live-ticket" ? "GET" : "POST",
        headers: { ...(json === undefined ? {} : { "Content-Type": "application/json" }), ...(cookie ? { Cookie: cookie } : {}) },
        body: json === undefined ? undefined : JSON.stringify(json),
      });
      const set = r.headers.getSetCookie()[0];
      if (set) cookie = set.split(";")[0];
      expect(r.status, `${path}: ${r.status}`).toBe(200);
      return r.json() as Promise<any>;
    };
    // No name is needed to watch; the ticket names the room to join.
    const t = await guestCall("/live-ticket");
    expect(t).toMatchObject({ asset_id: assetId, version: 1 });
    const guest = await watch(admin, assetId, t.ticket);
    expect(guest.status).toBe(101);
    await until("the guest in the room", async () => last(team.messages, "presence", (m) => m.watchers.some((w: any) => w.guest)));
    // A foreign asset's room is not opened by the guest's ticket.
    const other = await assetOf(admin);
    expect((await watch(admin, other.assetId, (await guestCall("/live-ticket")).ticket)).status).toBe(401);

    const secret = (await admin.call("/api/review/comments", { json: { asset_id: assetId, body: "ТОЛЬКО-КОМАНДЕ", internal: true } }))
      .comment_id;
    const visible = (await admin.call("/api/review/comments", { json: { asset_id: assetId, body: "Для всех" } })).comment_id;
    await until("the team has both", async () => last(team.messages, "comment.created", (m) => m.comment.comment_id === visible));
    const heard = await until("the guest has the visible one", async () =>
      last(guest.messages, "comment.created", (m) => m.comment.comment_id === visible),
    );
    expect(team.messages.some((m) => m.comment?.comment_id === secret)).toBe(true);
    expect(JSON.stringify(guest.messages)).not.toContain("ТОЛЬКО-КОМАНДЕ");
    // As the guest's list shows it: no team member's id.
    expect(heard.comment).toEqual((await guestCall("/comments")).items.find((c: any) => c.comment_id === visible));

    // The guest speaks under a name: the team hears it live; the guest's decision reaches both in their own shapes.
    await guestCall("/session", { name: "Заказчик" });
    const said = (await guestCall("/comments", { body: "Мне нравится" })).comment_id;
    const got = await until("the guest's comment at the team", async () =>
      last(team.messages, "comment.created", (m) => m.comment.comment_id === said),
    );
    expect(got.comment.author).toMatchObject({ name: "Заказчик", guest: true });
    await guestCall("/approval", { status: "approved" });
    const mine = await until("the guest's approval", async () =>
      last(guest.messages, "approval.changed", (m) => m.approval.status === "approved"),
    );
    expect(mine.approval).toEqual({ overall: "approved", status: "approved", note: "" });
    const theirs = await until("the team's approval", async () =>
      last(team.messages, "approval.changed", (m) => m.approval.overall === "approved"),
    );
    // As a reader reads it: the room never carries the reviewers' addresses, which only a caller with update is shown.
    const forAdmin = JSON.stringify(await admin.call(`/api/review/approval/${assetId}`));
    expect(theirs.approval).toEqual(JSON.parse(forAdmin.replaceAll(/"email":"[^"]*"/g, '"email":null')));
    team.ws.close();
    guest.ws.close();
  });
});
