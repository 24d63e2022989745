import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { events, tasks, users } from "../../db/schema";
import type { AuthUser, Env } from "../../functions/lib/env";
import { finishTask } from "../../functions/tasks/callbacks";
import { startRecognition } from "../../functions/tasks/recognize";
import { api } from "./helpers";
import { admin, call, db, grant, mkGroup, mkPerson, uniq, VIRTUAL_ROOT } from "./fixtures";
import { names } from "./search.helpers";
import { randomBytes, uploadFile } from "./uploads.helpers";

/** /api/transcripts (docs/decisions/059-transcripts.md): import, read, edit and export a version's transcript. */

const srt = `1
00:00:01,000 --> 00:00:03,500
Мы говорили о кошках
и о собаках.

2
00:00:04,250 --> 00:01:02,007
Второй субтитр.

10
01:00:00,000 --> 01:00:00,001
Последний.
`;

const vtt = `WEBVTT

intro
00:00:01.000 --> 00:00:03.500 align:start
<v Анна>Привет.
Вторая строка.

00:00:04.250 --> 00:00:05.000
Пока.
`;

/** The admin as the API's auth sees them, for calling services directly. */
async function authOf(_bearer: string): Promise<AuthUser> {
  const u = (await db().select().from(users).where(eq(users.login, "admin")).get())!;
  return { userId: u.userId, userName: u.userName, login: u.login, isAdmin: true, isRobot: false, chrootGroups: [], sessionId: "test" };
}

/** A video asset with one uploaded version, in a fresh group. */
async function mkVideo(group?: string) {
  const in_group = group ?? (await mkGroup(VIRTUAL_ROOT));
  const name = `${uniq("Интервью")}.mp4`;
  const r = await call("/api/asset/create", {
    method: "POST",
    json: { asset_name: name, asset_mime: "video/mp4", in_group },
    bearer: await admin(),
  });
  expect(r.status, r.text).toBe(200);
  await uploadFile(await admin(), r.body.asset_id, randomBytes(64), { mime: "video/mp4", name });
  return { id: r.body.asset_id as string, name, group: in_group };
}

const importAs = async (id: string, body: string, type = "application/x-subrip", query = "", bearer?: string) =>
  call(`/api/transcripts/${id}/import${query}`, {
    method: "POST",
    body,
    headers: { "Content-Type": type },
    bearer: bearer ?? (await admin()),
  });

describe("transcripts", () => {
  it("an imported SRT reads back as segments and exports byte for byte, with no byte order mark", async () => {
    const a = await mkVideo();
    const imported = await importAs(a.id, srt, "application/x-subrip", "?language=ru");
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body.version).toBe(1);
    expect(imported.body.segments).toEqual([
      { id: "1", start: 1, end: 3.5, text: "Мы говорили о кошках\nи о собаках." },
      { id: "2", start: 4.25, end: 62.007, text: "Второй субтитр." },
      { id: "10", start: 3600, end: 3600.001, text: "Последний." },
    ]);
    const got = await call(`/api/transcripts/${a.id}`, { bearer: await admin() });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ asset_id: a.id, version: 1, language: "ru", source: "import", segments: imported.body.segments });

    const res = await api(`/api/transcripts/${a.id}/export?format=srt&version=1`, { bearer: await admin() });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/x-subrip; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toContain(encodeURIComponent(a.name.replace(/\.mp4$/, ".srt")));
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).not.toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes)).toBe(srt);

    const events_ = await db()
      .select()
      .from(events)
      .where(and(eq(events.entityId, a.id), eq(events.kind, "transcript.import")));
    expect(events_).toHaveLength(1);
  });

  it("a WebVTT file round-trips with its identifiers, settings and speaker; txt is one cue a line", async () => {
    const a = await mkVideo();
    expect((await importAs(a.id, `\uFEFF${vtt.replace(/\n/g, "\r\n")}`, "text/vtt")).status).toBe(200);
    const out = await call(`/api/transcripts/${a.id}/export?format=vtt`, { bearer: await admin() });
    expect(out.text).toBe(vtt);
    const txt = await api(`/api/transcripts/${a.id}/export?format=txt`, { bearer: await admin() });
    expect(txt.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(await txt.text()).toBe("Анна: Привет. Вторая строка.\nПока.\n");
  });

  it("a malformed file is refused naming its line, and nothing is stored", async () => {
    const a = await mkVideo();
    const bad = await importAs(a.id, "1\n00:00:01,000 --> 00:00:02,000\nA\n\n2\n00:00:03 --> 00:00:04,000\nB\n");
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("строка 6");
    expect(bad.body.error.details[0].field).toBe("line 6");
    expect((await call(`/api/transcripts/${a.id}`, { bearer: await admin() })).status).toBe(404);
    const vttBad = await importAs(a.id, "WEBVTT\n\n00:01.000 --> 00:00.500\nA\n", "text/vtt");
    expect(vttBad.status).toBe(400);
    expect(vttBad.body.error.details[0].field).toBe("line 3");
  });

  it("refuses other body types, unknown versions and formats, naming them", async () => {
    const a = await mkVideo();
    const type = await importAs(a.id, srt, "application/json");
    expect(type.status).toBe(400);
    expect(type.body.error.details[0].field).toBe("Content-Type");
    const version = await importAs(a.id, srt, "text/plain", "?version=7");
    expect(version.status).toBe(400);
    expect(version.body.error.details[0].field).toBe("version");
    const format = await call(`/api/transcripts/${a.id}/export?format=docx`, { bearer: await admin() });
    expect(format.status).toBe(400);
    expect(format.body.error.details[0].field).toBe("format");
    const none = await call(`/api/transcripts/${a.id}/export`, { bearer: await admin() });
    expect(none.status).toBe(404);
    expect(none.body.error.message).toBe("У этой версии нет расшифровки");
  });

  it("PATCH replaces the segments as an edit and validates each one", async () => {
    const a = await mkVideo();
    await importAs(a.id, srt, "text/plain", "?language=ru");
    const segments = [
      { start: 1, end: 3.5, text: "Мы говорили о котах", speaker: "Анна" },
      { start: 4, end: 5, text: "Ещё" },
    ];
    const r = await call(`/api/transcripts/${a.id}`, { method: "PATCH", json: { segments }, bearer: await admin() });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ source: "edit", language: "ru", segments });
    const srtOut = await call(`/api/transcripts/${a.id}/export`, { bearer: await admin() });
    expect(srtOut.text).toBe("1\n00:00:01,000 --> 00:00:03,500\nАнна: Мы говорили о котах\n\n2\n00:00:04,000 --> 00:00:05,000\nЕщё\n");

    const backwards = await call(`/api/transcripts/${a.id}`, {
      method: "PATCH",
      json: { segments: [{ start: 5, end: 4, text: "x" }] },
      bearer: await admin(),
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.error.details.map((d: { field: string }) => d.field)).toContain("segments.0.end");
    const blank = await call(`/api/transcripts/${a.id}`, {
      method: "PATCH",
      json: { segments: [{ start: 0, end: 1, text: "a\n\nb" }] },
      bearer: await admin(),
    });
    expect(blank.status).toBe(400);
    expect(blank.body.error.details[0].field).toBe("segments.0.text");
    // The refused edits left the transcript as it was.
    expect((await call(`/api/transcripts/${a.id}`, { bearer: await admin() })).body.segments).toEqual(segments);
  });

  it("a reader reads and exports but may not import or edit; a stranger gets 404", async () => {
    const a = await mkVideo();
    await importAs(a.id, srt);
    const reader = await mkPerson();
    await grant(reader.id, a.group, ["read"]);
    expect((await call(`/api/transcripts/${a.id}`, { bearer: reader.bearer })).status).toBe(200);
    expect((await call(`/api/transcripts/${a.id}/export?format=vtt`, { bearer: reader.bearer })).status).toBe(200);
    expect((await importAs(a.id, srt, "text/plain", "", reader.bearer)).status).toBe(403);
    const patch = await call(`/api/transcripts/${a.id}`, { method: "PATCH", json: { segments: [] }, bearer: reader.bearer });
    expect(patch.status).toBe(403);
    const stranger = await mkPerson();
    const hidden = await call(`/api/transcripts/${a.id}`, { bearer: stranger.bearer });
    expect(hidden.status).toBe(404);
    expect(hidden.text).not.toContain("Мы говорили");
  });

  it("search finds an asset by a word of its transcript in another grammatical form", async () => {
    const a = await mkVideo();
    expect(await names("кошка", a.group)).toEqual([]);
    await importAs(a.id, srt, "text/plain", "?language=ru");
    expect(await names("кошка", a.group)).toEqual([a.name]);
    // An edit that drops the word drops the hit.
    await call(`/api/transcripts/${a.id}`, {
      method: "PATCH",
      json: { segments: [{ start: 0, end: 1, text: "Про погоду" }] },
      bearer: await admin(),
    });
    expect(await names("кошка", a.group)).toEqual([]);
    expect(await names("погода", a.group)).toEqual([a.name]);
  });
});

describe("search in transcripts", () => {
  const spoken = `1
00:00:01,000 --> 00:00:02,000
Добрый день.

2
00:00:12,500 --> 00:00:14,000
Собака лает.

3
00:00:20,250 --> 00:00:25,000
Мы говорили о кошках
и о собаках.
`;

  it("a hit found in a transcript carries the cue's start as `at` and the cue as its snippet", async () => {
    const a = await mkVideo();
    expect((await importAs(a.id, spoken, "application/x-subrip", "?language=ru")).status).toBe(200);
    // An asset found by its name only has no time.
    const named = await call("/api/asset/create", {
      method: "POST",
      json: { asset_name: `${uniq("Кошка")}.jpg`, asset_mime: "image/jpeg", in_group: a.group },
      bearer: await admin(),
    });
    expect(named.status, named.text).toBe(200);
    const find = async (q: string) => {
      const r = await call("/api/search/query", { method: "POST", json: { q, filters: { group: a.group } }, bearer: await admin() });
      expect(r.status, r.text).toBe(200);
      return r.body.items as { el_id: string; at?: number; snippet: string }[];
    };
    // Another grammatical form: «кошкой» finds «кошках» in the third cue.
    const cat = await find("кошкой");
    const video = cat.find((i) => i.el_id === a.id);
    expect(video).toMatchObject({ at: 20.25 });
    expect(video?.snippet).toContain("<mark>кошках</mark>");
    expect(cat.find((i) => i.el_id === named.body.asset_id)).not.toHaveProperty("at");
    // The first cue holding the word; the cue holding more of the query's words wins over an earlier one.
    expect((await find("собакой")).find((i) => i.el_id === a.id)?.at).toBe(12.5);
    expect((await find("кошки собаки")).find((i) => i.el_id === a.id)?.at).toBe(20.25);
  });

  it("a new version is searched by its own transcript: the previous version's words and times are gone", async () => {
    const a = await mkVideo();
    expect((await importAs(a.id, spoken, "application/x-subrip", "?language=ru")).status).toBe(200);
    const at = async (q: string) => {
      const r = await call("/api/search/query", { method: "POST", json: { q, filters: { group: a.group } }, bearer: await admin() });
      expect(r.status, r.text).toBe(200);
      return (r.body.items as { el_id: string; at?: number; snippet: string }[]).find((i) => i.el_id === a.id);
    };
    expect(await at("кошкой")).toMatchObject({ at: 20.25 });
    // A new version starts without a transcript: the old one's words no longer find the asset.
    await uploadFile(await admin(), a.id, randomBytes(80, 2), { mime: "video/mp4", name: a.name });
    expect(await at("кошкой")).toBeUndefined();
    const next = "1\n00:00:03,000 --> 00:00:04,000\nКошка спит.\n\n2\n00:00:07,500 --> 00:00:09,000\nЛошади бегут, кошки смотрят.\n";
    expect((await importAs(a.id, next, "application/x-subrip", "?language=ru")).status).toBe(200);
    expect(await at("кошкой")).toMatchObject({ at: 3, snippet: "<mark>Кошка</mark> спит." });
    expect(await at("лошадью кошкой")).toMatchObject({ at: 7.5 });
    expect(await at("собакой")).toBeUndefined();
    // An answer quotes and cites the new version's speech.
    const r = await call("/api/search/rag", {
      method: "POST",
      json: { question: "Что делают лошади?", filters: { group: a.group } },
      bearer: await admin(),
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.answer).toContain("Лошади бегут");
    expect(r.body.citations).toEqual([expect.objectContaining({ el_id: a.id, at: 7.5 })]);
  });

  it("three words: the segment holding the most of them, the earliest among equals", async () => {
    const a = await mkVideo();
    const cues = ["Кошка и собака.", "Лошадь и собака.", "Кошка, лошадь и собака.", "Кошка и лошадь, и собака.", "Корова."];
    const file = cues.map((text, i) => `${i + 1}\n00:00:0${i},000 --> 00:00:0${i},500\n${text}\n`).join("\n");
    expect((await importAs(a.id, file, "application/x-subrip", "?language=ru")).status).toBe(200);
    const at = async (q: string) => {
      const r = await call("/api/search/query", { method: "POST", json: { q, filters: { group: a.group } }, bearer: await admin() });
      expect(r.status, r.text).toBe(200);
      return (r.body.items as { el_id: string; at?: number }[]).find((i) => i.el_id === a.id)?.at;
    };
    expect(await at("кошки лошади собаки")).toBe(2);
    // No cue holds all four words the asset says: the first of those holding three.
    expect(await at("корова кошки лошади собаки")).toBe(2);
    // Two words no cue holds together: the first cue holding one.
    expect(await at("коровы лошади")).toBe(1);
  });

  it("an answer citing a transcript cites the asset and the time", async () => {
    const a = await mkVideo();
    expect((await importAs(a.id, spoken, "application/x-subrip", "?language=ru")).status).toBe(200);
    const r = await call("/api/search/rag", {
      method: "POST",
      json: { question: "Что говорили о кошках?", filters: { group: a.group } },
      bearer: await admin(),
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.answer).toContain("кошках");
    expect(r.body.citations).toEqual([expect.objectContaining({ el_id: a.id, at: 20.25 })]);
  });
});

describe("recognition", () => {
  it("answers 503 «Распознавание речи не настроено» without a recogniser; import still works", async () => {
    const a = await mkVideo();
    const r = await call(`/api/transcripts/${a.id}/recognize`, { method: "POST", json: {}, bearer: await admin() });
    expect(r.status).toBe(503);
    expect(r.body.error.message).toBe("Распознавание речи не настроено");
    expect((await importAs(a.id, srt)).status).toBe(200);
  });

  it("starts «Расшифровка» on the version, and the transcoder's result becomes the transcript with source asr", async () => {
    const a = await mkVideo();
    const sent: unknown[] = [];
    // The queue is replaced so no transcoder picks the task up: the test plays the transcoder's result itself.
    const withRecogniser = {
      ...env,
      TRANSCRIBE_URL: "http://127.0.0.1:9/v1",
      JOBS: { send: async (m: unknown) => void sent.push(m) },
    } as unknown as Env;
    const me = await authOf(await admin());
    const started = await startRecognition(db(), withRecogniser, me, a.id, { language: "ru-RU" });
    expect(started).toMatchObject({ version: 1, status: "inqueue" });
    expect(sent).toEqual([{ type: "task-run", jobId: started.job_id }]);
    const [task] = await db().select().from(tasks).where(eq(tasks.jobId, started.job_id));
    expect(task).toMatchObject({ template: "Расшифровка", operationClass: "transcribe", assetId: a.id, version: 1 });
    expect(task!.setup).toMatchObject({ language: "ru" });

    const segments = [{ start: 0.5, end: 2, text: "Распознанная речь", words: [{ start: 0.5, end: 1.2, word: "Распознанная" }] }];
    await finishTask(db(), env, task!, { transcript: { language: "ru", segments } });
    const got = await call(`/api/transcripts/${a.id}`, { bearer: await admin() });
    expect(got.body).toMatchObject({ source: "asr", language: "ru", segments });
    expect(await names("распознать", a.group)).toEqual([a.name]);
  });

  it("refuses an image with a 400 naming the asset", async () => {
    const group = await mkGroup(VIRTUAL_ROOT);
    const r0 = await call("/api/asset/create", {
      method: "POST",
      json: { asset_name: "кадр.png", asset_mime: "image/png", in_group: group },
      bearer: await admin(),
    });
    await uploadFile(await admin(), r0.body.asset_id, randomBytes(64), { mime: "image/png", name: "кадр.png" });
    const withRecogniser = { ...env, TRANSCRIBE_URL: "http://127.0.0.1:9", JOBS: { send: async () => {} } } as unknown as Env;
    await expect(startRecognition(db(), withRecogniser, await authOf(await admin()), r0.body.asset_id, {})).rejects.toMatchObject({
      code: "validation",
      details: [{ field: "asset_id" }],
    });
  });
});
