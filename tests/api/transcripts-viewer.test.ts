import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { accessRules, events } from "../../db/schema";
import { signUrl } from "../../functions/lib/sign";
import { api, login } from "./helpers";
import { admin, call, db, grant, mkGroup, mkPerson, uniq, VIRTUAL_ROOT } from "./fixtures";
import { randomBytes, uploadFile } from "./uploads.helpers";

/**
 * What the viewer needs of /api/transcripts (docs/decisions/059-transcripts.md): a signed WebVTT link for the
 * player's <track>, and «Перенести расшифровку» (copy a version's transcript onto another).
 */

const srt = `1
00:00:01,000 --> 00:00:02,500
Первая реплика.

2
00:00:03,000 --> 00:00:04,000
Вторая <реплика> & «кавычки».
`;

async function mkVideo() {
  const in_group = await mkGroup(VIRTUAL_ROOT);
  const name = `${uniq("Лекция")}.mp4`;
  const r = await call("/api/asset/create", {
    method: "POST",
    json: { asset_name: name, asset_mime: "video/mp4", in_group },
    bearer: await admin(),
  });
  expect(r.status, r.text).toBe(200);
  await uploadFile(await admin(), r.body.asset_id, randomBytes(64), { mime: "video/mp4", name });
  return { id: r.body.asset_id as string, name, group: in_group };
}

const importSrt = async (id: string, query = "") =>
  call(`/api/transcripts/${id}/import${query}`, {
    method: "POST",
    body: srt,
    headers: { "Content-Type": "application/x-subrip" },
    bearer: await admin(),
  });

const pathOf = (link: string) => {
  const u = new URL(link);
  return u.pathname + u.search;
};

describe("track links", () => {
  it("a signed link serves the version's transcript as WebVTT without a bearer", async () => {
    const a = await mkVideo();
    expect((await importSrt(a.id, "?language=ru")).status).toBe(200);
    const reader = await mkPerson();
    await grant(reader.id, a.group, ["read"]);
    const made = await call(`/api/transcripts/${a.id}/track`, { method: "POST", bearer: reader.bearer });
    expect(made.status, made.text).toBe(200);
    expect(made.body.version).toBe(1);
    const now = Date.now() / 1000;
    expect(made.body.expire - now).toBeGreaterThan(5 * 60);
    expect(made.body.expire - now).toBeLessThanOrEqual(15 * 60);
    expect(new URL(made.body.link).pathname).toBe(`/api/transcripts/${a.id}/track`);

    const res = await api(pathOf(made.body.link));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/vtt; charset=utf-8");
    expect(res.headers.get("Content-Security-Policy")).toContain("sandbox");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const body = await res.text();
    // The same file the export route writes.
    const exported = await call(`/api/transcripts/${a.id}/export?format=vtt`, { bearer: reader.bearer });
    expect(body).toBe(exported.text);
    expect(body.startsWith("WEBVTT")).toBe(true);
    expect(body).toContain("00:00:03.000 --> 00:00:04.000");
  });

  it("a forged, expired or re-pointed signature is refused with 403, and so is a link without one", async () => {
    const a = await mkVideo();
    await importSrt(a.id);
    const made = await call(`/api/transcripts/${a.id}/track`, { method: "POST", bearer: await admin() });
    const good = new URL(made.body.link);
    const session = good.searchParams.get("s")!;

    const forged = new URL(good);
    const sig = forged.searchParams.get("sig")!;
    forged.searchParams.set("sig", (sig[0] === "0" ? "1" : "0") + sig.slice(1));
    const refused = await api(forged.pathname + forged.search);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe("Ссылка недействительна или устарела");

    // Correctly signed, but an hour ago expired.
    const past = Math.floor(Date.now() / 1000) - 3600;
    const expired = new URLSearchParams(await signUrl(env.JWT_SECRET, "transcript-track", `${a.id}:1:${session}`, past));
    const old = new URL(good);
    old.searchParams.set("exp", expired.get("exp")!);
    old.searchParams.set("sig", expired.get("sig")!);
    expect((await api(old.pathname + old.search)).status).toBe(403);

    // A longer life cannot be written into a link: the expiry is signed.
    const longer = new URL(good);
    longer.searchParams.set("exp", String(Number(good.searchParams.get("exp")) + 3600));
    expect((await api(longer.pathname + longer.search)).status).toBe(403);

    // The signature names its asset and version: it opens no other.
    const b = await mkVideo();
    await importSrt(b.id);
    expect((await api(`/api/transcripts/${b.id}/track${good.search}`)).status).toBe(403);
    const otherVersion = new URL(good);
    otherVersion.searchParams.set("version", "2");
    expect((await api(otherVersion.pathname + otherVersion.search)).status).toBe(403);

    expect((await api(`/api/transcripts/${a.id}/track`)).status).toBe(403);
    expect((await api(pathOf(made.body.link))).status).toBe(200);
  });

  it("stops at logout and when the right to read goes", async () => {
    const a = await mkVideo();
    await importSrt(a.id);
    const person = await mkPerson();
    const rule = await grant(person.id, a.group, ["read"]);
    const s = await login({ user: person.login, passwd: person.password });
    const link = (await call(`/api/transcripts/${a.id}/track`, { method: "POST", bearer: s.bearer })).body.link as string;
    expect((await api(pathOf(link))).status).toBe(200);

    const other = (await call(`/api/transcripts/${a.id}/track`, { method: "POST", bearer: person.bearer })).body.link as string;
    await db().delete(accessRules).where(eq(accessRules.ruleId, rule));
    const gone = await api(pathOf(other));
    expect(gone.status).toBe(404);
    expect(await gone.text()).not.toContain("реплика");

    await grant(person.id, a.group, ["read"]);
    expect((await api("/api/auth/logout", { cookie: s.cookie })).status).toBe(200);
    const after = await api(pathOf(link));
    expect(after.status).toBe(403);
    expect(((await after.json()) as { error: { message: string } }).error.message).toMatch(/Сеанс завершён/);
  });

  it("a version without a transcript gets no link (404); an unknown version is a 400 naming it", async () => {
    const a = await mkVideo();
    const none = await call(`/api/transcripts/${a.id}/track`, { method: "POST", bearer: await admin() });
    expect(none.status).toBe(404);
    expect(none.body.error.message).toBe("У этой версии нет расшифровки");
    const bad = await call(`/api/transcripts/${a.id}/track?version=7`, { method: "POST", bearer: await admin() });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe("version");
  });
});

describe("«Перенести расшифровку»", () => {
  /** A video whose version 1 has the transcript, with an empty version 2 (and optionally 3). */
  async function twoVersions(third = false) {
    const a = await mkVideo();
    expect((await importSrt(a.id, "?language=ru")).status).toBe(200);
    await uploadFile(await admin(), a.id, randomBytes(80, 2), { mime: "video/mp4", name: a.name });
    if (third) await uploadFile(await admin(), a.id, randomBytes(96, 3), { mime: "video/mp4", name: a.name });
    return a;
  }

  it("copies the previous version's transcript onto a version without one, keeping language and source", async () => {
    const a = await twoVersions();
    const before = await call(`/api/transcripts/${a.id}`, { bearer: await admin() });
    expect(before.status).toBe(404);
    const copied = await call(`/api/transcripts/${a.id}/copy`, { method: "POST", bearer: await admin() });
    expect(copied.status, copied.text).toBe(200);
    expect(copied.body).toMatchObject({ asset_id: a.id, version: 2, language: "ru", source: "import" });
    const original = await call(`/api/transcripts/${a.id}?version=1`, { bearer: await admin() });
    const latest = await call(`/api/transcripts/${a.id}?version=2`, { bearer: await admin() });
    expect(latest.body.segments).toEqual(original.body.segments);
    const written = await db().select().from(events).where(eq(events.entityId, a.id)).all();
    const copyEvent = written.find((e) => e.kind.startsWith("transcript.") && (e.data as { version?: number } | null)?.version === 2);
    expect(copyEvent).toMatchObject({ kind: "transcript.import", data: { version: 2, from_version: 1, segments: 2 } });
    // The copy is its own: editing it leaves version 1 as it was.
    await call(`/api/transcripts/${a.id}?version=2`, {
      method: "PATCH",
      json: { segments: [{ start: 0, end: 1, text: "Новое" }] },
      bearer: await admin(),
    });
    expect((await call(`/api/transcripts/${a.id}?version=1`, { bearer: await admin() })).body.segments).toEqual(original.body.segments);
  });

  it("copies from a named version onto a named one", async () => {
    const a = await twoVersions(true);
    const copied = await call(`/api/transcripts/${a.id}/copy?from_version=1&version=3`, { method: "POST", bearer: await admin() });
    expect(copied.status, copied.text).toBe(200);
    expect(copied.body.version).toBe(3);
    expect((await call(`/api/transcripts/${a.id}?version=2`, { bearer: await admin() })).status).toBe(404);
  });

  it("refuses what cannot be copied, naming the field", async () => {
    const a = await twoVersions(true);
    const post = async (q: string) => call(`/api/transcripts/${a.id}/copy${q}`, { method: "POST", bearer: await admin() });
    // Version 3's previous is 2, which has none.
    const empty = await post("");
    expect(empty.status).toBe(404);
    expect(empty.body.error.message).toBe("У версии 2 нет расшифровки");
    const first = await post("?version=1");
    expect(first.status).toBe(400);
    expect(first.body.error.details[0].field).toBe("from_version");
    const same = await post("?version=2&from_version=2");
    expect(same.status).toBe(400);
    expect(same.body.error.details[0].field).toBe("from_version");
    const missing = await post("?from_version=9");
    expect(missing.status).toBe(400);
    expect(missing.body.error.details[0].field).toBe("from_version");
    const badNumber = await post("?from_version=x");
    expect(badNumber.status).toBe(400);
    expect(badNumber.body.error.details[0].field).toBe("from_version");
    const badVersion = await post("?version=8&from_version=1");
    expect(badVersion.status).toBe(400);
    expect(badVersion.body.error.details[0].field).toBe("version");
    // Onto a version that has one: a conflict, and the transcript stays.
    expect((await post("?version=2&from_version=1")).status).toBe(200);
    const twice = await post("?version=2&from_version=1");
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toBe("У этой версии уже есть расшифровка");
  });

  it("needs update on the asset: a reader gets 403, a stranger 404, and nothing is copied", async () => {
    const a = await twoVersions();
    const reader = await mkPerson();
    await grant(reader.id, a.group, ["read"]);
    expect((await call(`/api/transcripts/${a.id}/copy`, { method: "POST", bearer: reader.bearer })).status).toBe(403);
    const stranger = await mkPerson();
    const hidden = await call(`/api/transcripts/${a.id}/copy`, { method: "POST", bearer: stranger.bearer });
    expect(hidden.status).toBe(404);
    expect(hidden.text).not.toContain("реплика");
    expect((await call(`/api/transcripts/${a.id}?version=2`, { bearer: await admin() })).status).toBe(404);
    const editor = await mkPerson();
    await grant(editor.id, a.group, ["read", "update"]);
    expect((await call(`/api/transcripts/${a.id}/copy`, { method: "POST", bearer: editor.bearer })).status).toBe(200);
  });
});
