import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { Env } from "../../functions/lib/env";
import { admin, call, grant, mkGroup, mkPerson, type Person, uniq, VIRTUAL_ROOT } from "./fixtures";
import { mkTemplate, setValue } from "./fields.helpers";
import { api } from "./helpers";
import { conceptEmbedding, mkNamed } from "./search.helpers";

/**
 * POST /api/search/rag and /api/search/vector (docs/decisions/045-search.md). Answers are extractive: every
 * sentence comes from a readable asset and carries its citation. Semantic search needs an embeddings
 * endpoint: without one it says so (503); with one (a stand-in for the third-party model here, the Worker's
 * client code as in production) it ranks by meaning within what the caller can read.
 */

let open: string;
let closed: string;
let reader: Person;
const ids: Record<string, string> = {};

beforeAll(async () => {
  const top = await mkGroup(VIRTUAL_ROOT, uniq("Ответы"));
  open = await mkGroup(top, uniq("Открытая"));
  closed = await mkGroup(top, uniq("Закрытая"));
  reader = await mkPerson();
  await grant(reader.id, open, ["read"]);
  const description = await mkTemplate("text", { multiline: true });
  ids.cat = await mkNamed(open, "IMG_0001.jpg");
  ids.secret = await mkNamed(closed, "IMG_0002.jpg");
  ids.sea = await mkNamed(open, "IMG_0003.jpg");
  const describe = async (id: string, text: string) =>
    expect((await setValue({ entity_id: id, def_id: description, field_data: text })).status).toBe(200);
  await describe(ids.cat, "Кошка спит на софе. Рядом стоит лампа.");
  await describe(ids.secret, "Кошка прячет секретный ключ под софой.");
  await describe(ids.sea, "Волны бьются о скалы. Чайки кричат.");
});

const rag = async (question: string, bearer: string) => {
  const r = await call("/api/search/rag", { method: "POST", json: { question, filters: { group: open } }, bearer });
  expect(r.status, r.text).toBe(200);
  return r.body as { answer: string; citations: { el_id: string; name: string; snippet: string }[]; mode: string };
};

describe("answers", () => {
  it("answers from the matching sentences, each with its citation, marked extractive", async () => {
    const a = await rag("Где спит кошка?", reader.bearer);
    expect(a.mode).toBe("extractive");
    expect(a.citations.map((c) => c.el_id)).toEqual([ids.cat]);
    expect(a.answer).toBe("Кошка спит на софе. [1]");
    expect(a.citations[0].snippet).toContain("<mark>спит</mark>");
  });

  it("cites only assets the caller can read", async () => {
    const r = await call("/api/search/rag", { method: "POST", json: { question: "секретный ключ кошки" }, bearer: reader.bearer });
    expect(r.status).toBe(200);
    expect(r.body.citations.map((c: { el_id: string }) => c.el_id)).not.toContain(ids.secret);
    expect(r.body.answer).not.toContain("секретный");
    const asAdmin = await call("/api/search/rag", { method: "POST", json: { question: "секретный ключ кошки" }, bearer: await admin() });
    expect(asAdmin.body.citations.map((c: { el_id: string }) => c.el_id)).toContain(ids.secret);
  });

  it("says nothing when nothing readable matches, and refuses an empty question", async () => {
    expect(await rag("вулкан извергается", reader.bearer)).toEqual({ answer: "", citations: [], mode: "extractive" });
    const r = await call("/api/search/rag", { method: "POST", json: { question: " " }, bearer: reader.bearer });
    expect(r.status).toBe(400);
    expect(r.body.error.details[0].field).toBe("question");
  });
});

/** A stand-in for a chat model: it answers what the test tells it to, and keeps the prompt it was sent. */
const chat = {
  reply: "",
  prompt: "",
  fetch: async (_url: RequestInfo, init?: RequestInit) => {
    const { messages } = JSON.parse(String(init?.body)) as { messages: { content: string }[] };
    chat.prompt = messages.map((m) => m.content).join("\n");
    return Response.json({ choices: [{ message: { role: "assistant", content: chat.reply } }] });
  },
};
const withChat = { ...(env as unknown as Env), CHAT_URL: "https://chat.test/v1/chat/completions", CHAT_FETCH: chat } as Env;
const ask = async (question: string, bearer: string) => {
  const r = await api("/api/search/rag", { method: "POST", json: { question }, bearer, env: withChat });
  expect(r.status).toBe(200);
  return (await r.json()) as { answer: string; citations: { el_id: string }[]; mode: string };
};

describe("generated answers", () => {
  it("writes the answer from readable sources only, each sentence citing one", async () => {
    chat.reply = "Кошка спит на софе [1]. Рядом стоит лампа [1].";
    const a = await ask("Где спит кошка?", reader.bearer);
    expect(chat.prompt).toContain("Кошка спит на софе");
    expect(chat.prompt).not.toContain("секретный");
    expect(a.mode).toBe("generated");
    expect(a.answer).toBe("Кошка спит на софе. [1] Рядом стоит лампа. [1]");
    expect(a.citations.map((c) => c.el_id)).toEqual([ids.cat]);
  });

  it("falls back to the extractive answer when a sentence cites nothing or a source it was not given", async () => {
    for (const reply of ["Кошка спит на софе [1]. А это я придумал.", "Кошка спит на софе [9].", ""]) {
      chat.reply = reply;
      const a = await ask("Где спит кошка?", reader.bearer);
      expect(a.mode, reply).toBe("extractive");
      expect(a.answer).toBe("Кошка спит на софе. [1]");
    }
  });
});

/** A stand-in for an embeddings service (OpenAI-compatible), answering with conceptEmbedding. */
const model = {
  requests: 0,
  fetch: async (_url: RequestInfo, init?: RequestInit) => {
    model.requests++;
    const { input } = JSON.parse(String(init?.body)) as { input: string[] };
    return Response.json({ data: input.map((text, index) => ({ index, embedding: conceptEmbedding(text) })) });
  },
};
const withModel = { ...(env as unknown as Env), EMBEDDINGS_URL: "https://embeddings.test/v1/embeddings", EMBEDDINGS_FETCH: model } as Env;

describe("semantic search", () => {
  it("says it is not configured when no embeddings endpoint is", async () => {
    const r = await call("/api/search/vector", { method: "POST", json: { q: "котёнок на диване" }, bearer: reader.bearer });
    expect(r.status).toBe(503);
    expect(r.body.error.message).toBe("Семантический поиск не настроен");
  });

  it("with a model, finds by meaning what keywords miss, readable things only", async () => {
    const bearer = reader.bearer;
    const keyword = await call("/api/search/query", { method: "POST", json: { q: "котёнок на диване" }, bearer });
    expect(keyword.body.total).toBe(0);
    // Documents indexed before the model was configured get their vectors when they are next indexed.
    const names = { [ids.cat]: "IMG_0001.jpg", [ids.secret]: "IMG_0002.jpg", [ids.sea]: "IMG_0003.jpg" };
    for (const [id, asset_name] of Object.entries(names)) {
      const r = await api(`/api/asset/${id}`, { method: "PATCH", json: { asset_name }, bearer: await admin(), env: withModel });
      expect(r.status).toBe(200);
    }
    const r = await api("/api/search/vector", { method: "POST", json: { q: "котёнок на диване" }, bearer, env: withModel });
    expect(r.status).toBe(200);
    const hits = (await r.json()) as { el_id: string; score: number }[];
    expect(hits[0].el_id).toBe(ids.cat);
    expect(hits.map((h) => h.el_id)).not.toContain(ids.secret);
    expect(hits[0].score).toBeGreaterThan(hits[1]?.score ?? 0);
    const like = await api("/api/search/vector", {
      method: "POST",
      json: { like: ids.cat, take: 5 },
      bearer: await admin(),
      env: withModel,
    });
    const similar = (await like.json()) as { el_id: string }[];
    expect(similar[0].el_id).toBe(ids.secret);
    expect(similar.map((h) => h.el_id)).not.toContain(ids.cat);
    expect(model.requests).toBeGreaterThan(0);
  });

  it("ranks like an asset only the caller can read: an unreadable one answers the same 404 as a missing one", async () => {
    const like = (id: string) =>
      api("/api/search/vector", { method: "POST", json: { like: id, take: 5 }, bearer: reader.bearer, env: withModel });
    const readable = await like(ids.cat);
    expect(readable.status).toBe(200);
    const hidden = await like(ids.secret);
    const missing = await like(crypto.randomUUID());
    expect(hidden.status).toBe(404);
    expect(missing.status).toBe(404);
    const errorOf = async (r: Response) => {
      const { error } = (await r.json()) as { error: { code: string; message: string } };
      return { code: error.code, message: error.message };
    };
    expect(await errorOf(hidden)).toEqual(await errorOf(missing));
  });

  it("refuses a body with both q and like", async () => {
    const r = await api("/api/search/vector", { method: "POST", json: { q: "x", like: ids.cat }, bearer: reader.bearer, env: withModel });
    expect(r.status).toBe(400);
  });
});
