import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../functions/lib/db";
import { rawBatch, rawStatement } from "../../functions/lib/sql";
import type { Env } from "../../functions/lib/env";
import { listCount } from "../../functions/search/ivf";
import { embedderFrom } from "../../functions/search/vector";
import type { VectorizeLike, WorkersAiLike } from "../../functions/lib/bindings";
import { maintainVectorLists } from "../../functions/search/vector-lists";
import { admin, grant, mkGroup, mkPerson, type Person, uniq, VIRTUAL_ROOT } from "./fixtures";
import { api } from "./helpers";
import { conceptEmbedding, concepts, mkNamed } from "./search.helpers";

/**
 * Semantic search at scale and in production's shape (docs/decisions/051-search-at-scale.md): the local IVF index
 * the cron trains, and the Workers AI and Vectorize adapters driven through fake bindings (neither runs here).
 * The fakes embed by concepts: words of one meaning share a dimension.
 */

const cosine = (a: number[], b: number[]) => {
  const dot = a.reduce((s, x, i) => s + x * b[i], 0);
  return dot / Math.hypot(...a) / Math.hypot(...b);
};

let reader: Person;
const ids: Record<string, string> = {};
const names: Record<string, string> = {};

beforeAll(async () => {
  const top = await mkGroup(VIRTUAL_ROOT, uniq("Векторы"));
  const open = await mkGroup(top, uniq("Открытая"));
  const closed = await mkGroup(top, uniq("Закрытая"));
  reader = await mkPerson();
  await grant(reader.id, open, ["read"]);
  names.cat = uniq("Кошка спит на софе");
  names.secret = uniq("Кот дремлет на диване");
  names.sea = uniq("Волны и море");
  ids.cat = await mkNamed(open, names.cat);
  ids.secret = await mkNamed(closed, names.secret);
  ids.sea = await mkNamed(open, names.sea);
});

let renames = 0;

/**
 * Re-indexes the three documents under `withEnv` (their vectors are written as they are indexed): each is renamed
 * to its own words with a new number, so what it means, and so its vector, stays.
 */
async function reindex(withEnv: Env) {
  renames++;
  for (const [key, id] of Object.entries(ids)) {
    const renamed = await api(`/api/asset/${id}`, {
      method: "PATCH",
      json: { asset_name: `${names[key]} ${renames}.jpg` },
      bearer: await admin(),
      env: withEnv,
    });
    expect(renamed.status).toBe(200);
  }
}

const vector = async (json: Record<string, unknown>, bearer: string, withEnv: Env) => {
  const r = await api("/api/search/vector", { method: "POST", json, bearer, env: withEnv });
  expect(r.status, await r.clone().text()).toBe(200);
  return (await r.json()) as { el_id: string; score: number }[];
};

describe("Workers AI and Vectorize (fake bindings)", () => {
  const calls: { model: string; text: string[] }[] = [];
  const ai: WorkersAiLike = {
    async run(model, input) {
      const text = input.text as string[];
      calls.push({ model, text });
      return { shape: [text.length, concepts.length], data: text.map(conceptEmbedding) };
    },
  };
  const stored = new Map<string, number[]>();
  const vectorize: VectorizeLike = {
    async upsert(vectors) {
      for (const v of vectors) stored.set(v.id, Array.from(v.values));
    },
    async query(vec, { topK }) {
      const matches = [...stored].map(([id, values]) => ({ id, score: cosine(vec, values) }));
      return { matches: matches.sort((a, b) => b.score - a.score).slice(0, topK) };
    },
    async getByIds(wanted) {
      return wanted.flatMap((id) => (stored.has(id) ? [{ id, values: stored.get(id) ?? [] }] : []));
    },
  };
  const cloud = { ...(env as unknown as Env), AI: ai, VECTORIZE: vectorize } as Env;

  it("embeds with bge-m3 through the AI binding and keeps the vectors in Vectorize, not the database", async () => {
    await reindex(cloud);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((c) => c.model === "@cf/baai/bge-m3")).toBe(true);
    for (const id of Object.values(ids)) expect(stored.has(id)).toBe(true);
    const inDb = await env.DB.prepare("SELECT count(*) AS n FROM search_vectors WHERE el_id IN (?, ?, ?)")
      .bind(ids.cat, ids.secret, ids.sea)
      .first<{ n: number }>();
    expect(inDb?.n).toBe(0);
  });

  it("answers the nearest readable documents: Vectorize ranks, the access engine filters", async () => {
    const hits = await vector({ q: "котёнок на диване", take: 5 }, reader.bearer, cloud);
    expect(hits[0].el_id).toBe(ids.cat);
    expect(hits.map((h) => h.el_id)).not.toContain(ids.secret);
    const asAdmin = await vector({ q: "котёнок на диване", take: 5 }, await admin(), cloud);
    expect(
      asAdmin
        .map((h) => h.el_id)
        .slice(0, 2)
        .sort(),
    ).toEqual([ids.cat, ids.secret].sort());
    const like = await vector({ like: ids.cat, take: 5 }, await admin(), cloud);
    expect(like[0].el_id).toBe(ids.secret);
    expect(like.map((h) => h.el_id)).not.toContain(ids.cat);
  });
});

describe("the local IVF index (trained by the cron)", () => {
  const model = "ivf-test";
  const model_ = {
    fetch: async (_url: RequestInfo, init?: RequestInit) => {
      const { input } = JSON.parse(String(init?.body)) as { input: string[] };
      return Response.json({ data: input.map((text, index) => ({ index, embedding: conceptEmbedding(text) })) });
    },
  };
  const local = {
    ...(env as unknown as Env),
    EMBEDDINGS_URL: "https://embeddings.test/v1/embeddings",
    EMBEDDINGS_MODEL: model,
    EMBEDDINGS_FETCH: model_,
  } as Env;
  const NOISE = 2100;

  it("trains lists once there are enough vectors, files every vector, and still finds the nearest readable", async () => {
    await reindex(local);
    const db = getDb(env as unknown as Env);
    // Many more vectors, all about the sea, of things nobody can read (no document): they fill the lists.
    const noise = Array.from({ length: NOISE }, (_, i) => {
      const v = Float32Array.from([0.01, 0.01, 0.01, 1].map((x) => x + Math.random() * 0.3));
      const n = Math.hypot(...v);
      return rawStatement(
        "INSERT INTO search_vectors (el_id, model, vec) VALUES (?, ?, ?)",
        `noise-${i}`,
        model,
        new Uint8Array(v.map((x) => x / n).buffer),
      );
    });
    for (let i = 0; i < noise.length; i += 500) await rawBatch(db, noise.slice(i, i + 500));
    const before = await vector({ q: "котёнок на диване", take: 3 }, reader.bearer, local);
    expect(before[0].el_id).toBe(ids.cat);
    // By meaning, not by a tie broken in its favour.
    expect(before[0].score).toBeGreaterThan(before[1]?.score ?? 0);

    await maintainVectorLists(db, embedderFrom(local));
    const lists = await env.DB.prepare("SELECT count(*) AS n FROM search_vector_lists WHERE model = ?").bind(model).first<{ n: number }>();
    expect(lists?.n).toBe(listCount(NOISE + 3));
    const unfiled = await env.DB.prepare("SELECT count(*) AS n FROM search_vectors WHERE model = ? AND list IS NULL")
      .bind(model)
      .first<{ n: number }>();
    expect(unfiled?.n).toBe(0);
    // The rows stored without a quantized copy (as before there were copies) got one.
    const unquantized = await env.DB.prepare("SELECT count(*) AS n FROM search_vectors WHERE model = ? AND vec8 IS NULL")
      .bind(model)
      .first<{ n: number }>();
    expect(unquantized?.n).toBe(0);

    const after = await vector({ q: "котёнок на диване", take: 3 }, reader.bearer, local);
    expect(after[0].el_id).toBe(ids.cat);
    expect(after.map((h) => h.el_id)).not.toContain(ids.secret);
    expect(after.every((h) => !h.el_id.startsWith("noise-"))).toBe(true);
    // A vector stored after training is filed in its list at once.
    await reindex(local);
    const late = await env.DB.prepare("SELECT list FROM search_vectors WHERE el_id = ?").bind(ids.sea).first<{ list: number | null }>();
    expect(late?.list).not.toBeNull();
  });
});
