import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { events, wopiLocks } from "../../db/schema";
import { signWopiToken } from "../../functions/wopi/tokens";
import { encodeUtf7 } from "../../functions/wopi/utf7";
import { admin, db, disable, grant, issueToken, mkPerson } from "./fixtures";
import { api, login, refreshCookieOf } from "./helpers";
import { desk, doc, fileInfo, override, putFile, testEnv, tokenFor, wopi, type Desk } from "./wopi.helpers";

/**
 * The WOPI host against the groups of the WOPI validator: CheckFileInfo, GetFile, locks, PutFile,
 * PutRelativeFile, rename, access tokens. docs/decisions/046-wopi.md. Discovery and proof keys: wopi-client.test.ts.
 */

let d: Desk;
beforeAll(async () => {
  d = await desk();
}, 60_000);

const bodyText = async (res: Response) => new TextDecoder().decode(await res.arrayBuffer());

describe("CheckFileInfo", () => {
  it("answers the required properties with their types, and the user's rights", async () => {
    const id = await doc(d.group, "Отчёт.txt", "привет");
    const t = await tokenFor(d.editor.bearer, id);
    expect(t.wopi_src).toBe(`http://mam.test/api/wopi/files/${id}`);
    expect(t.urlsrc).toBeNull();
    expect(t.access_token_ttl).toBeGreaterThan(Date.now());
    expect(t.access_token_ttl).toBeLessThan(Date.now() + 24 * 3600_000);
    const info = await fileInfo(id, t.access_token);
    expect(info).toMatchObject({
      BaseFileName: "Отчёт.txt",
      Size: new TextEncoder().encode("привет").length,
      UserId: d.editor.id,
      UserFriendlyName: d.editor.login,
      UserCanWrite: true,
      UserCanNotWriteRelative: false,
      ReadOnly: false,
      SupportsLocks: true,
      SupportsGetLock: true,
      SupportsUpdate: true,
      SupportsRename: true,
      SupportsExtendedLockLength: true,
      PostMessageOrigin: "http://mam.test",
      CloseUrl: `http://mam.test/asset/${id}`,
      HostEditUrl: `http://mam.test/editor/${id}`,
    });
    for (const k of ["OwnerId", "Version", "LastModifiedTime"]) expect(typeof info[k]).toBe("string");
    expect(new Date(info.LastModifiedTime as string).toISOString()).toBe(info.LastModifiedTime);

    const ro = await fileInfo(id, (await tokenFor(d.reader.bearer, id)).access_token);
    expect(ro).toMatchObject({ UserId: d.reader.id, UserCanWrite: false, ReadOnly: true, UserCanNotWriteRelative: true });
  });
});

describe("GetFile", () => {
  it("answers the bytes with X-WOPI-ItemVersion equal to CheckFileInfo's Version", async () => {
    const id = await doc(d.group, "a.txt", "первая строка\n");
    const t = (await tokenFor(d.viewer.bearer, id)).access_token;
    const res = await wopi(id, t, { suffix: "/contents" });
    expect(res.status).toBe(200);
    expect(res.headers.get("X-WOPI-ItemVersion")).toBe((await fileInfo(id, t)).Version);
    expect(await bodyText(res)).toBe("первая строка\n");
  });

  it("answers an empty file as 0 bytes, refuses one larger than X-WOPI-MaxExpectedSize (412)", async () => {
    const empty = await doc(d.group, "пусто.txt");
    const t = (await tokenFor(d.editor.bearer, empty)).access_token;
    const res = await wopi(empty, t, { suffix: "/contents" });
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBe(0);
    const big = await doc(d.group, "b.txt", "0123456789");
    const tb = (await tokenFor(d.editor.bearer, big)).access_token;
    expect((await wopi(big, tb, { suffix: "/contents", headers: { "X-WOPI-MaxExpectedSize": "5" } })).status).toBe(412);
  });

  it("gives the original only to a user who may download it", async () => {
    const id = await doc(d.group, "c.txt", "секрет");
    const res = await wopi(id, (await tokenFor(d.reader.bearer, id)).access_token, { suffix: "/contents" });
    expect(res.status).toBe(403);
  });
});

describe("Locks", () => {
  it("lock, get-lock, refresh, unlock, and relock with the old lock", async () => {
    const id = await doc(d.group, "l.txt", "x");
    const t = (await tokenFor(d.editor.bearer, id)).access_token;
    expect((await override(id, t, "GET_LOCK")).headers.get("X-WOPI-Lock")).toBe("");
    expect((await override(id, t, "LOCK", { "X-WOPI-Lock": "A" })).status).toBe(200);
    expect((await override(id, t, "GET_LOCK")).headers.get("X-WOPI-Lock")).toBe("A");
    // Locking again with the same id refreshes it.
    expect((await override(id, t, "LOCK", { "X-WOPI-Lock": "A" })).status).toBe(200);
    expect((await override(id, t, "REFRESH_LOCK", { "X-WOPI-Lock": "A" })).status).toBe(200);
    expect((await override(id, t, "LOCK", { "X-WOPI-Lock": "B", "X-WOPI-OldLock": "A" })).status).toBe(200);
    expect((await override(id, t, "GET_LOCK")).headers.get("X-WOPI-Lock")).toBe("B");
    expect((await override(id, t, "UNLOCK", { "X-WOPI-Lock": "B" })).status).toBe(200);
    expect((await override(id, t, "GET_LOCK")).headers.get("X-WOPI-Lock")).toBe("");
  });

  it("answers every mismatch 409 with the current lock in X-WOPI-Lock and a reason", async () => {
    const id = await doc(d.group, "m.txt", "x");
    const t = (await tokenFor(d.editor.bearer, id)).access_token;
    const conflict = async (res: Response, current: string) => {
      expect(res.status).toBe(409);
      expect(res.headers.get("X-WOPI-Lock")).toBe(current);
      expect(res.headers.get("X-WOPI-LockFailureReason")).toBeTruthy();
    };
    // Unlocked: refresh, unlock and relock have no lock to match.
    await conflict(await override(id, t, "REFRESH_LOCK", { "X-WOPI-Lock": "A" }), "");
    await conflict(await override(id, t, "UNLOCK", { "X-WOPI-Lock": "A" }), "");
    await conflict(await override(id, t, "LOCK", { "X-WOPI-Lock": "B", "X-WOPI-OldLock": "A" }), "");
    expect((await override(id, t, "LOCK", { "X-WOPI-Lock": "A" })).status).toBe(200);
    await conflict(await override(id, t, "LOCK", { "X-WOPI-Lock": "B" }), "A");
    await conflict(await override(id, t, "REFRESH_LOCK", { "X-WOPI-Lock": "B" }), "A");
    await conflict(await override(id, t, "UNLOCK", { "X-WOPI-Lock": "B" }), "A");
    await conflict(await override(id, t, "LOCK", { "X-WOPI-Lock": "C", "X-WOPI-OldLock": "B" }), "A");
    await conflict(await putFile(id, t, "new", "B"), "A");
    await conflict(await putFile(id, t, "new"), "A");
  });

  it("takes lock ids up to 1,024 characters, and the lock lapses after 30 minutes", async () => {
    const id = await doc(d.group, "n.txt", "x");
    const t = (await tokenFor(d.editor.bearer, id)).access_token;
    const long = "L".repeat(1024);
    expect((await override(id, t, "LOCK", { "X-WOPI-Lock": `${long}L` })).status).toBe(400);
    expect((await override(id, t, "LOCK", { "X-WOPI-Lock": long })).status).toBe(200);
    expect((await override(id, t, "GET_LOCK")).headers.get("X-WOPI-Lock")).toBe(long);
    const row = await db().select().from(wopiLocks).where(eq(wopiLocks.assetId, id)).get();
    const now = Math.floor(Date.now() / 1000);
    expect(row!.expiresAt - now).toBeGreaterThan(29 * 60);
    expect(row!.expiresAt - now).toBeLessThanOrEqual(30 * 60);
    await db()
      .update(wopiLocks)
      .set({ expiresAt: now - 1 })
      .where(eq(wopiLocks.assetId, id));
    expect((await override(id, t, "GET_LOCK")).headers.get("X-WOPI-Lock")).toBe("");
    expect((await override(id, t, "LOCK", { "X-WOPI-Lock": "other" })).status).toBe(200);
  });

  it("refuses a lock without X-WOPI-Lock (400) and an unknown override (501)", async () => {
    const id = await doc(d.group, "o.txt", "x");
    const t = (await tokenFor(d.editor.bearer, id)).access_token;
    expect((await override(id, t, "LOCK")).status).toBe(400);
    expect((await override(id, t, "DELETE")).status).toBe(501);
  });
});

describe("PutFile", () => {
  it("writes a new version with the lock: new bytes, a new Version, the upload's event", async () => {
    const id = await doc(d.group, "p.txt", "старое");
    const t = (await tokenFor(d.editor.bearer, id)).access_token;
    const before = (await fileInfo(id, t)).Version;
    expect((await override(id, t, "LOCK", { "X-WOPI-Lock": "L1" })).status).toBe(200);
    const res = await putFile(id, t, "новое содержимое", "L1");
    expect(res.status).toBe(200);
    const after = await fileInfo(id, t);
    expect(after.Version).not.toBe(before);
    expect(res.headers.get("X-WOPI-ItemVersion")).toBe(after.Version);
    expect(after.Size).toBe(new TextEncoder().encode("новое содержимое").length);
    expect(await (await wopi(id, t, { suffix: "/contents" })).text()).toBe("новое содержимое");
    const versions = await api(`/api/asset/versions/${id}`, { bearer: await admin() }).then(
      (r) => r.json() as Promise<{ version: number }[]>,
    );
    expect(Math.max(...versions.map((v) => v.version))).toBe(2);
    const ev = await db()
      .select()
      .from(events)
      .where(and(eq(events.entityId, id), eq(events.kind, "upload.complete")))
      .all();
    expect(ev.filter((e) => e.userId === d.editor.id)).toHaveLength(1);
  });

  it("writes an unlocked file only while it is empty", async () => {
    const empty = await doc(d.group, "новый.txt");
    const t = (await tokenFor(d.editor.bearer, empty)).access_token;
    expect((await putFile(empty, t, "первое сохранение")).status).toBe(200);
    const again = await putFile(empty, t, "второе");
    expect(again.status).toBe(409);
    expect(again.headers.get("X-WOPI-Lock")).toBe("");
  });

  it("refuses a read-only token (401) and a missing override (400)", async () => {
    const id = await doc(d.group, "q.txt", "x");
    const ro = (await tokenFor(d.viewer.bearer, id)).access_token;
    expect((await putFile(id, ro, "y")).status).toBe(401);
    expect((await override(id, ro, "LOCK", { "X-WOPI-Lock": "R" })).status).toBe(401);
    const t = (await tokenFor(d.editor.bearer, id)).access_token;
    const res = await wopi(id, t, { method: "POST", suffix: "/contents", body: new TextEncoder().encode("y") });
    expect(res.status).toBe(400);
  });
});

describe("PutRelativeFile", () => {
  const relative = (id: string, t: string, headers: Record<string, string>, content = "копия") =>
    override(
      id,
      t,
      "PUT_RELATIVE",
      { ...headers, "X-WOPI-Size": String(new TextEncoder().encode(content).length) },
      new TextEncoder().encode(content),
    );

  it("a suggested extension keeps the name; a suggested taken name is made unique; the Url opens the new file", async () => {
    const id = await doc(d.group, "План.txt", "x");
    const t = (await tokenFor(d.editor.bearer, id)).access_token;
    const res = await relative(id, t, { "X-WOPI-SuggestedTarget": encodeUtf7(".md") });
    expect(res.status).toBe(200);
    const made = (await res.json()) as { Name: string; Url: string; HostEditUrl: string };
    expect(made.Name).toBe("План.md");
    const url = new URL(made.Url);
    const newId = url.pathname.split("/").pop()!;
    const info = await fileInfo(newId, url.searchParams.get("access_token")!);
    expect(info).toMatchObject({ BaseFileName: "План.md", Size: new TextEncoder().encode("копия").length });
    const second = await relative(id, t, { "X-WOPI-SuggestedTarget": encodeUtf7("План.md") });
    expect(((await second.json()) as { Name: string }).Name).toBe("План (2).md");
  });

  it("a relative target is used as is: taken → 409 with a valid name, overwrite → a new version, a locked target → 409", async () => {
    const id = await doc(d.group, "Итог.txt", "x");
    const t = (await tokenFor(d.editor.bearer, id)).access_token;
    const fresh = await relative(id, t, { "X-WOPI-RelativeTarget": encodeUtf7("Итог-копия.txt") });
    expect(fresh.status).toBe(200);
    expect(((await fresh.json()) as { Name: string }).Name).toBe("Итог-копия.txt");
    const taken = await relative(id, t, { "X-WOPI-RelativeTarget": encodeUtf7("Итог-копия.txt") });
    expect(taken.status).toBe(409);
    expect(taken.headers.get("X-WOPI-ValidRelativeTarget")).toBe(encodeUtf7("Итог-копия (2).txt"));
    const over = await relative(
      id,
      t,
      { "X-WOPI-RelativeTarget": encodeUtf7("Итог-копия.txt"), "X-WOPI-OverwriteRelativeTarget": "true" },
      "поверх",
    );
    expect(over.status).toBe(200);
    const target = new URL(((await over.json()) as { Url: string }).Url);
    const targetId = target.pathname.split("/").pop()!;
    const tt = target.searchParams.get("access_token")!;
    expect(await (await wopi(targetId, tt, { suffix: "/contents" })).text()).toBe("поверх");
    expect((await override(targetId, tt, "LOCK", { "X-WOPI-Lock": "T" })).status).toBe(200);
    const locked = await relative(id, t, {
      "X-WOPI-RelativeTarget": encodeUtf7("Итог-копия.txt"),
      "X-WOPI-OverwriteRelativeTarget": "true",
    });
    expect(locked.status).toBe(409);
    expect(locked.headers.get("X-WOPI-Lock")).toBe("T");
  });

  it("both targets → 501, none → 400, a read-only token → 401", async () => {
    const id = await doc(d.group, "r.txt", "x");
    const t = (await tokenFor(d.editor.bearer, id)).access_token;
    expect((await relative(id, t, { "X-WOPI-SuggestedTarget": ".md", "X-WOPI-RelativeTarget": "a.md" })).status).toBe(501);
    expect((await relative(id, t, {})).status).toBe(400);
    const ro = (await tokenFor(d.viewer.bearer, id)).access_token;
    expect((await relative(id, ro, { "X-WOPI-SuggestedTarget": ".md" })).status).toBe(401);
  });
});

describe("RENAME_FILE and PUT_USER_INFO", () => {
  it("renames keeping the extension, honours the lock, refuses a bad name", async () => {
    const id = await doc(d.group, "Старое имя.txt", "x");
    const t = (await tokenFor(d.editor.bearer, id)).access_token;
    const res = await override(id, t, "RENAME_FILE", { "X-WOPI-RequestedName": encodeUtf7("Новое имя") });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ Name: "Новое имя" });
    expect((await fileInfo(id, t)).BaseFileName).toBe("Новое имя.txt");
    const bad = await override(id, t, "RENAME_FILE", { "X-WOPI-RequestedName": "a/b" });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("X-WOPI-InvalidFileNameError")).toBeTruthy();
    await override(id, t, "LOCK", { "X-WOPI-Lock": "K" });
    const locked = await override(id, t, "RENAME_FILE", { "X-WOPI-RequestedName": "x", "X-WOPI-Lock": "other" });
    expect(locked.status).toBe(409);
    expect(locked.headers.get("X-WOPI-Lock")).toBe("K");
  });

  it("keeps the user's info for the file", async () => {
    const id = await doc(d.group, "u.txt", "x");
    const t = (await tokenFor(d.viewer.bearer, id)).access_token;
    expect((await override(id, t, "PUT_USER_INFO", {}, "настройки клиента")).status).toBe(200);
    expect((await fileInfo(id, t)).UserInfo).toBe("настройки клиента");
  });
});

describe("Access tokens", () => {
  it("forged, expired, foreign and missing tokens answer 401", async () => {
    const id = await doc(d.group, "t.txt", "x");
    const other = await doc(d.group, "t2.txt", "x");
    const claims = { userId: d.editor.id, sessionId: crypto.randomUUID(), fileId: id, write: true, proof: false };
    const forged = (await signWopiToken("another-secret-another-secret-another-secret", claims)).token;
    const expired = (await signWopiToken(testEnv().JWT_SECRET, claims, Math.floor(Date.now() / 1000) - 3600, 60)).token;
    const foreign = (await tokenFor(d.editor.bearer, other)).access_token;
    for (const token of [forged, expired, foreign, "", "not-a-jwt"]) expect((await wopi(id, token)).status).toBe(401);
    // A bearer is not an access token.
    expect((await wopi(id, d.editor.bearer)).status).toBe(401);
  });

  it("a token ends with the session it was issued in: sign-out, a revoked session family, a new password", async () => {
    const id = await doc(d.group, "s.txt", "x");
    const person = await mkPerson();
    await grant(person.id, d.group, ["read"]);
    const creds = { user: person.login, passwd: person.password };

    // Sign-out: the token issued in that session stops at once; one from another live session goes on.
    const a = await login(creds);
    const b = await login(creds);
    const ta = (await tokenFor(a.bearer, id)).access_token;
    const tb = (await tokenFor(b.bearer, id)).access_token;
    expect((await wopi(id, ta)).status).toBe(200);
    expect((await api("/api/auth/logout", { cookie: a.cookie })).status).toBe(200);
    expect((await wopi(id, ta)).status).toBe(401);
    expect((await wopi(id, ta, { suffix: "/contents" })).status).toBe(401);
    expect((await wopi(id, tb)).status).toBe(200);

    // Refreshing keeps the session, so its token lives on; a replayed refresh cookie revokes the family and the token.
    const rotated = await api("/api/auth/refresh", { cookie: b.cookie });
    expect(rotated.status).toBe(200);
    refreshCookieOf(rotated);
    expect((await wopi(id, tb)).status).toBe(200);
    expect((await api("/api/auth/refresh", { cookie: b.cookie })).status).toBe(401);
    expect((await wopi(id, tb)).status).toBe(401);

    // A new password set by an admin ends every session, and with them their tokens.
    const c = await login(creds);
    const tc = (await tokenFor(c.bearer, id)).access_token;
    expect((await wopi(id, tc)).status).toBe(200);
    const changed = await api(`/api/user/${person.id}`, {
      method: "PATCH",
      json: { user_passwd: "a-new-password-1" },
      bearer: await admin(),
    });
    expect(changed.status).toBe(200);
    expect((await wopi(id, tc)).status).toBe(401);
  });

  it("a robot's token ends with the API token it was issued under", async () => {
    const id = await doc(d.group, "r.txt", "x");
    const robot = await mkPerson({ robot: true });
    await grant(robot.id, d.group, ["read"]);
    const api1 = await issueToken(robot.id);
    const api2 = await issueToken(robot.id);
    const t1 = (await tokenFor(api1.token, id)).access_token;
    const t2 = (await tokenFor(api2.token, id)).access_token;
    expect((await wopi(id, t1)).status).toBe(200);
    const revoked = await api(`/api/user/${robot.id}/tokens/${api1.token_id}`, { method: "DELETE", bearer: await admin() });
    expect(revoked.status).toBe(200);
    expect((await wopi(id, t1)).status).toBe(401);
    expect((await wopi(id, t2)).status).toBe(200);
  });

  it("a token ends with its user's account; a deleted file answers 404; the token route needs the bearer and read", async () => {
    const id = await doc(d.group, "v.txt", "x");
    const person = await mkPerson();
    await grant(person.id, d.group, ["read"]);
    const t = (await tokenFor(person.bearer, id)).access_token;
    expect((await wopi(id, t)).status).toBe(200);
    await disable(person.id);
    expect((await wopi(id, t)).status).toBe(401);

    const gone = await doc(d.group, "w.txt", "x");
    const tg = (await tokenFor(d.editor.bearer, gone)).access_token;
    expect((await api(`/api/asset/${gone}`, { method: "DELETE", bearer: await admin() })).status).toBe(200);
    expect((await wopi(gone, tg)).status).toBe(404);

    expect((await api(`/api/wopi/token/${id}`, { method: "POST" })).status).toBe(401);
    const outsider = await mkPerson();
    expect((await api(`/api/wopi/token/${id}`, { method: "POST", bearer: outsider.bearer })).status).toBe(404);
  });
});
