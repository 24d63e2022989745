import { describe, expect, it } from "vitest";
import { admin, call } from "./fixtures";
import { comment, eventsOf, fieldsOf, listOf, reviewWorld, setProxyRate } from "./review.helpers";

/** /api/review/comments (docs/decisions/061-review-and-approval.md): frames, pages, drawings, replies, rights. */

describe("review comments", () => {
  it("a comment at frame N reads back at frame N with its timecode, at 25 and at 30000/1001", async () => {
    const w = await reviewWorld();
    const at25 = await comment(w.reader.bearer, { asset_id: w.id, body: "свет", at: { frame: 87, fps_num: 25, fps_den: 1 } });
    const ntsc = await comment(w.reader.bearer, {
      asset_id: w.id,
      body: "звук",
      at: { frame: 1800, fps_num: 30000, fps_den: 1001 },
      until: { frame: 17982, fps_num: 30000, fps_den: 1001 },
    });
    const { items } = await listOf(w.id, w.reader.bearer);
    const byId = Object.fromEntries(items.map((c) => [c.comment_id, c]));
    expect(byId[at25].at).toEqual({ frame: 87, fps_num: 25, fps_den: 1, seconds: 3.48, timecode: "00:00:03:12" });
    expect(byId[at25].rate_matches).toBeNull();
    // Non-drop-frame at 29.97: frame 1800 is 00:01:00:00 (60.06 s of clock time); 17982 is 599.9994 s.
    expect(byId[ntsc].at).toMatchObject({ frame: 1800, fps_num: 30000, fps_den: 1001, timecode: "00:01:00:00" });
    expect(byId[ntsc].at.seconds).toBeCloseTo(60.06, 9);
    expect(byId[ntsc].until).toMatchObject({ frame: 17982, timecode: "00:09:59:12" });
    expect(byId[ntsc].until.seconds).toBeCloseTo(599.9994, 9);
  });

  it("seconds become the proxy's frame; without a known rate they are refused naming `at`", async () => {
    const w = await reviewWorld();
    const refused = await call("/api/review/comments", {
      method: "POST",
      json: { asset_id: w.id, body: "тут", at: { seconds: 1 } },
      bearer: w.reader.bearer,
    });
    expect(fieldsOf(refused)).toEqual(["at"]);
    await setProxyRate(w.id, 1, "30000/1001");
    const id = await comment(w.reader.bearer, { asset_id: w.id, body: "тут", at: { seconds: 60.06 }, until: { seconds: 61 } });
    const list = await listOf(w.id, w.reader.bearer);
    expect(list.rate).toEqual({ fps_num: 30000, fps_den: 1001 });
    const c = list.items.find((x) => x.comment_id === id);
    expect(c.at).toMatchObject({ frame: 1800, fps_num: 30000, fps_den: 1001, timecode: "00:01:00:00" });
    expect(c.until.frame).toBe(1828);
    expect(c.rate_matches).toBe(true);
    // Given at 25 before the proxy existed: kept as given, and flagged as not the proxy's rate.
    const early = await comment(w.reader.bearer, { asset_id: w.id, body: "раньше", at: { frame: 50, fps_num: 25, fps_den: 1 } });
    const e = (await listOf(w.id, w.reader.bearer)).items.find((x) => x.comment_id === early);
    expect(e.at).toMatchObject({ frame: 50, fps_num: 25, fps_den: 1, timecode: "00:00:02:00" });
    expect(e.rate_matches).toBe(false);
  });

  it("keeps a page, a region and drawings, replies under their thread, and lists in time order", async () => {
    const w = await reviewWorld();
    const shapes = [
      { type: "rect", x: 0.1, y: 0.2, w: 0.3, h: 0.4, color: "#ff0000" },
      {
        type: "arrow",
        points: [
          [0, 0],
          [0.5, 0.5],
        ],
        color: "#00ff00",
      },
      { type: "text", x: 0.5, y: 0.5, text: "здесь", color: "#0000ff" },
    ];
    const late = await comment(w.reader.bearer, {
      asset_id: w.id,
      body: "позже",
      at: { frame: 50, fps_num: 25, fps_den: 1 },
      shapes,
      region: { x: 0.1, y: 0.1, w: 0.5, h: 0.5 },
    });
    const early = await comment(w.editor.bearer, {
      asset_id: w.id,
      body: "раньше",
      at: { frame: 10, fps_num: 25, fps_den: 1 },
      internal: true,
    });
    const general = await comment(w.reader.bearer, { asset_id: w.id, body: "в целом" });
    // 0.5 s at 30000/1001 is frame 15: between 10/25 (0.4 s) and 50/25 (2 s).
    const middle = await comment(w.reader.bearer, { asset_id: w.id, body: "середина", at: { frame: 15, fps_num: 30000, fps_den: 1001 } });
    const reply = await comment(w.editor.bearer, { asset_id: w.id, body: "согласен", parent_id: late });
    const { items } = await listOf(w.id, w.reader.bearer);
    expect(items.map((c) => c.comment_id)).toEqual([early, middle, late, general]);
    const l = items[2];
    expect(l.shapes).toEqual(shapes);
    expect(l.region).toEqual({ x: 0.1, y: 0.1, w: 0.5, h: 0.5 });
    expect(l.replies.map((r: any) => [r.comment_id, r.parent_id, r.body])).toEqual([[reply, late, "согласен"]]);
    expect(l.author.user_id).toBe(w.reader.id);
    expect(l.author.name).toBeTruthy();
    expect(items[0]).toMatchObject({ internal: true, resolved: false });
    const page = await comment(w.reader.bearer, { asset_id: w.id, body: "стр. 2", page: 2 });
    expect((await listOf(w.id, w.reader.bearer)).items[0].comment_id).toBe(page);
    const nested = await call("/api/review/comments", {
      method: "POST",
      json: { asset_id: w.id, body: "ещё", parent_id: reply },
      bearer: w.reader.bearer,
    });
    expect(fieldsOf(nested)).toEqual(["parent_id"]);
  });

  it("answers bad input with 400 naming the field", async () => {
    const w = await reviewWorld();
    const post = (json: Record<string, unknown>) =>
      call("/api/review/comments", { method: "POST", json: { asset_id: w.id, body: "x", ...json }, bearer: w.reader.bearer });
    expect(fieldsOf(await post({ body: "" }))).toEqual(["body"]);
    expect(fieldsOf(await post({ at: { frame: 1, fps_num: 25 } }))).toEqual(["at.fps_den"]);
    expect(fieldsOf(await post({ at: { frame: -1, fps_num: 25, fps_den: 1 } }))).toEqual(["at.frame"]);
    expect(fieldsOf(await post({ at: { frame: 1, fps_num: 25, fps_den: 1, seconds: 2 } }))).toEqual(["at.seconds"]);
    expect(fieldsOf(await post({ until: { seconds: 2 } }))).toEqual(["until"]);
    expect(fieldsOf(await post({ at: { frame: 10, fps_num: 25, fps_den: 1 }, until: { frame: 5, fps_num: 25, fps_den: 1 } }))).toEqual([
      "until",
    ]);
    expect(fieldsOf(await post({ region: { x: 1.5, y: 0, w: 0.1, h: 0.1 } }))).toEqual(["region.x"]);
    expect(fieldsOf(await post({ shapes: [{ type: "rect", x: 0, y: 0, w: 1, h: 1 }] }))).toEqual(["shapes.0.color"]);
    expect(fieldsOf(await post({ shapes: [{ type: "arrow", points: [[0, 0]], color: "#000000" }] }))).toEqual(["shapes.0.points"]);
    expect(fieldsOf(await post({ shapes: [{ type: "star", color: "#000000" }] }))).toEqual(["shapes.0.type"]);
    expect(
      fieldsOf(
        await post({
          shapes: [
            {
              type: "path",
              points: [
                [0, 0],
                [2, 0],
              ],
              color: "#000000",
            },
          ],
        }),
      ),
    ).toEqual(["shapes.0.points.1.0"]);
    expect(fieldsOf(await post({ version: 7 }))).toEqual(["version"]);
    const patch = await call("/api/review/comments/00000000-0000-4000-8000-000000000000", {
      method: "PATCH",
      json: {},
      bearer: w.reader.bearer,
    });
    expect(fieldsOf(patch)).toEqual(["body"]);
  });

  it("rights: no read is 404; a reader cannot resolve or edit others' comments; delete is the author's or an admin's", async () => {
    const w = await reviewWorld();
    const none = await call("/api/review/comments", { method: "POST", json: { asset_id: w.id, body: "x" }, bearer: w.outsider.bearer });
    expect(none.status).toBe(404);
    expect((await call(`/api/review/comments?asset_id=${w.id}`, { bearer: w.outsider.bearer })).status).toBe(404);
    const mine = await comment(w.reader.bearer, { asset_id: w.id, body: "моё" });
    const patch = (id: string, bearer: string, json: Record<string, unknown>) =>
      call(`/api/review/comments/${id}`, { method: "PATCH", json, bearer });
    expect((await patch(mine, w.outsider.bearer, { resolved: true })).status).toBe(404);
    expect((await patch(mine, w.reader2.bearer, { resolved: true })).status).toBe(403);
    expect((await patch(mine, w.editor.bearer, { body: "чужое" })).status).toBe(403);
    expect((await patch(mine, w.editor.bearer, { resolved: true })).status).toBe(200);
    expect((await patch(mine, w.reader.bearer, { resolved: false, body: "моё, исправлено" })).status).toBe(200);
    const got = (await listOf(w.id, w.reader.bearer)).items.find((c) => c.comment_id === mine);
    expect(got).toMatchObject({ body: "моё, исправлено", resolved: false });
    const reply = await comment(w.reader2.bearer, { asset_id: w.id, body: "ответ", parent_id: mine });
    const del = (id: string, bearer: string) => call(`/api/review/comments/${id}`, { method: "DELETE", bearer });
    expect((await del(mine, w.editor.bearer)).status).toBe(403);
    expect((await del(mine, w.outsider.bearer)).status).toBe(404);
    expect((await del(reply, w.reader2.bearer)).status).toBe(200);
    const other = await comment(w.reader2.bearer, { asset_id: w.id, body: "ещё одно" });
    expect((await del(other, await admin())).status).toBe(200);
    await comment(w.reader2.bearer, { asset_id: w.id, body: "ответ 2", parent_id: mine });
    expect((await del(mine, w.reader.bearer)).status).toBe(200);
    expect((await listOf(w.id, w.reader.bearer)).items).toEqual([]);
    expect((await eventsOf(w.id, "review.comment-delete")).length).toBe(3);
  });

  it("is an event review.comment; a mention names only users who can read the file", async () => {
    const w = await reviewWorld();
    const id = await comment(w.editor.bearer, {
      asset_id: w.id,
      body: `@${w.reader.login} посмотри, и @${w.outsider.login} тоже, и @nobody-here`,
      at: { frame: 25, fps_num: 25, fps_den: 1 },
    });
    const [ev] = await eventsOf(w.id, "review.comment");
    expect(ev.userId).toBe(w.editor.id);
    expect(ev.data).toMatchObject({
      comment_id: id,
      version: 1,
      frame: 25,
      fps: "25/1",
      mentions: [{ user_id: w.reader.id, login: w.reader.login }],
    });
  });
});
