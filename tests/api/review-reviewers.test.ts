import { describe, expect, it } from "vitest";
import { call, disable, grant, mkPerson } from "./fixtures";
import { reviewWorld } from "./review.helpers";

/** GET /api/review/reviewers/{asset_id}: whom a requester may ask (docs/decisions/061, "Requesting review in the viewer"). */

const ids = (r: { body: any }) => (r.body as { user_id: string }[]).map((u) => u.user_id);

describe("reviewer candidates", () => {
  it("lists enabled people who can read the file, by name or login, to those with update; never others", async () => {
    const w = await reviewWorld();
    const all = await call(`/api/review/reviewers/${w.id}?q=user`, { bearer: w.editor.bearer });
    expect(all.status, all.text).toBe(200);
    const found = ids(all);
    // Readers of the group are candidates; someone without read is not (they would be refused as reviewers).
    const byLogin = await call(`/api/review/reviewers/${w.id}?q=${w.reader.login}`, { bearer: w.editor.bearer });
    expect(ids(byLogin)).toEqual([w.reader.id]);
    expect(byLogin.body[0]).toMatchObject({ user_id: w.reader.id, login: w.reader.login });
    const outsider = await call(`/api/review/reviewers/${w.id}?q=${w.outsider.login}`, { bearer: w.editor.bearer });
    expect(outsider.status).toBe(200);
    expect(ids(outsider)).toEqual([]);
    expect(found).not.toContain(w.outsider.id);
    expect(found.length).toBeLessThanOrEqual(20);

    // A disabled reader and a robot reader are not offered.
    const robot = await mkPerson({ robot: true });
    await grant(robot.id, w.group, ["read"]);
    expect(ids(await call(`/api/review/reviewers/${w.id}?q=${robot.login}`, { bearer: w.editor.bearer }))).toEqual([]);
    await disable(w.reader2.id);
    expect(ids(await call(`/api/review/reviewers/${w.id}?q=${w.reader2.login}`, { bearer: w.editor.bearer }))).toEqual([]);
  });

  it("a reader is refused (403), someone who cannot read the file gets 404 as for a missing one, a long query is a 400", async () => {
    const w = await reviewWorld();
    expect((await call(`/api/review/reviewers/${w.id}`, { bearer: w.reader.bearer })).status).toBe(403);
    const hidden = await call(`/api/review/reviewers/${w.id}?q=${w.reader.login}`, { bearer: w.outsider.bearer });
    expect(hidden.status).toBe(404);
    expect(hidden.text).not.toContain(w.reader.login);
    const long = await call(`/api/review/reviewers/${w.id}?q=${"я".repeat(101)}`, { bearer: w.editor.bearer });
    expect(long.status).toBe(400);
    expect(long.body.error.details[0].field).toBe("q");
  });
});
