import { sql, type SQL } from "drizzle-orm";
import { accessContext, requireAccess } from "../lib/access";
import { configOf } from "../lib/config";
import type { Db } from "../lib/db";
import { idList, literal, rawBatch } from "../lib/sql";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { dot, dotQuantized, nearestList, nearestLists, normalize, probes, quantize } from "./ivf";
import { readableOf } from "./readable";
import { upsertVector } from "./sql";
import { vectorizeIndex, workersAiEmbedder } from "./vector-cloud";
import type { Embedder, Scored, VectorIndex } from "./vector-types";

/**
 * Semantic search (docs/decisions/045-search.md, 051-search-at-scale.md): an Embedder turns text into vectors, a
 * VectorIndex keeps them and finds the nearest a caller may read. In production Workers AI embeds and Vectorize
 * indexes (bindings AI and VECTORIZE, ./vector-cloud.ts); locally an OpenAI-compatible endpoint (EMBEDDINGS_URL)
 * embeds and search_vectors, with an IVF index (./ivf.ts), keeps them. Without a model nothing pretends: the API
 * answers 503 "Семантический поиск не настроен".
 */

export const NOT_CONFIGURED = "Семантический поиск не настроен";

/** Vectors read per statement: a whole list, or everything, would not fit one D1 answer. */
const VECTOR_PAGE = 1000;

/** The configured embedder: an explicit endpoint first, else Workers AI when bound, else none. */
export function embedderFrom(env: Env): Embedder | null {
  const vectorize = env.VECTORIZE;
  const { EMBEDDINGS_URL: url, EMBEDDINGS_MODEL } = configOf(env);
  if (!url) return env.AI ? { ...workersAiEmbedder(env.AI, EMBEDDINGS_MODEL), ...(vectorize ? { vectorize } : {}) } : null;
  // The endpoint's model when none is named; Workers AI has its own default (vector-cloud.ts).
  const model = EMBEDDINGS_MODEL ?? "bge-m3";
  const send = env.EMBEDDINGS_FETCH ?? { fetch: (input: RequestInfo, init?: RequestInit) => fetch(input, init) };
  return {
    model,
    ...(vectorize ? { vectorize } : {}),
    async embed(texts) {
      const r = await send.fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...(env.EMBEDDINGS_KEY ? { authorization: `Bearer ${env.EMBEDDINGS_KEY}` } : {}) },
        body: JSON.stringify({ model, input: texts }),
      });
      if (!r.ok) throw new ApiError("unavailable", `Сервис векторов ответил ${r.status}`);
      const body = (await r.json()) as { data: { embedding: number[]; index?: number }[] };
      const sorted = [...body.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      return sorted.map((d) => normalize(Float32Array.from(d.embedding)));
    },
  };
}

const toBlob = (v: Float32Array | Int8Array) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
const HEX = new Uint8Array(128);
for (let i = 0; i < 16; i++) HEX["0123456789ABCDEF".charCodeAt(i)] = i;

/** The bytes of SQLite's hex() of a blob. */
function bytesOfHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (HEX[hex.charCodeAt(2 * i)] << 4) | HEX[hex.charCodeAt(2 * i + 1)];
  return bytes;
}

/** A vector from SQLite's hex() of its blob. */
export const fromHex = (hex: string): Float32Array => new Float32Array(bytesOfHex(hex).buffer);

/** The index an embedder's vectors live in: Vectorize when bound, else the database. */
export const indexFor = (db: Db, embedder: Embedder): VectorIndex =>
  embedder.vectorize ? vectorizeIndex(db, embedder.vectorize) : databaseIndex(db, embedder.model);

interface Centroids {
  lists: number[];
  centroids: Float32Array[];
}

/**
 * Centroids read before, by model and training (a few hundred kilobytes: worth not reading per query). A
 * retraining changes `trained_on` and the list count, so the key tells a stale copy.
 */
const centroidCache = new Map<string, { key: string; value: Centroids }>();

/** The IVF centroids of a model, in list order (empty: no index yet, every vector is read). */
export async function centroidsOf(db: Db, model: string): Promise<Centroids> {
  const stamp = await db.get<{ trained: number | null; n: number }>(
    sql`SELECT max(trained_on) AS trained, count(*) AS n FROM search_vector_lists WHERE model = ${model}`,
  );
  const key = `${stamp?.trained ?? 0}:${stamp?.n ?? 0}`;
  const cached = centroidCache.get(model);
  if (cached?.key === key) return cached.value;
  const rows = await db.all<{ list: number; centroid: string }>(
    sql`SELECT list, hex(centroid) AS centroid FROM search_vector_lists WHERE model = ${model} ORDER BY list`,
  );
  const value = { lists: rows.map((r) => r.list), centroids: rows.map((r) => fromHex(r.centroid)) };
  centroidCache.set(model, { key, value });
  return value;
}

/**
 * search_vectors with its IVF index: a query reads the vectors of the lists whose centroids are nearest the query
 * (and those not yet filed in a list), only the ones the caller may read (the access engine's SQL joined to each
 * page), and ranks them by their exact cosine. Without centroids (fewer than MIN_TRAIN vectors) it reads them all.
 */
export function databaseIndex(db: Db, model: string): VectorIndex {
  return {
    async upsert(items) {
      if (!items.length) return;
      const { lists, centroids } = await centroidsOf(db, model);
      // Raw statements: drizzle's batch cannot bind a blob into raw SQL.
      await rawBatch(
        db,
        items.map(({ elId, vec }) => {
          const { q, scale } = quantize(vec);
          return upsertVector(elId, model, toBlob(vec), centroids.length ? lists[nearestList(centroids, vec)] : null, toBlob(q), scale);
        }),
      );
    },
    async vectorOf(elId) {
      const row = await db.get<{ vec: string }>(sql`SELECT hex(vec) AS vec FROM search_vectors WHERE el_id = ${elId} AND model = ${model}`);
      return row ? fromHex(row.vec) : null;
    },
    async query(ctx, target, take, exclude) {
      const { lists, centroids } = await centroidsOf(db, model);
      const scans: SQL[] = centroids.length
        ? [...nearestLists(centroids, target, probes(centroids.length)).map((i) => sql`list = ${lists[i]}`), sql`list IS NULL`]
        : [sql`1`];
      // Every candidate scored first, by its quantized vector, from search_vectors alone (the list index keeps a
      // list's rows in rowid order).
      const pages = await Promise.all(scans.map((scan) => scanVectors(db, model, scan, target, exclude)));
      const scored = pages.flat().sort((a, b) => b.score - a.score);
      // Then who may read them, best first, a batch at a time, until the shortlist is full: the same answer as
      // checking every candidate, for a few statements instead of a join per vector.
      const shortlist: Scored[] = [];
      const wanted = Math.max(RESCORE_MIN, take * RESCORE_FACTOR);
      for (let i = 0; i < scored.length && shortlist.length < wanted; i += READ_CHECK) {
        const batch = scored.slice(i, i + READ_CHECK);
        const ok = await readableOf(
          db,
          ctx,
          batch.map((c) => c.el_id),
        );
        for (const c of batch) if (ok.has(c.el_id) && shortlist.length < wanted) shortlist.push(c);
      }
      // The shortlist re-scored by the full vectors: the order and the scores given are the exact cosines.
      return (await exactScores(db, model, shortlist, target)).sort((a, b) => b.score - a.score).slice(0, take);
    },
  };
}

/** Candidates checked for access per statement. */
const READ_CHECK = 100;

/**
 * Readable candidates re-scored by their full vectors: 3 × take, at least 60. Quantizing moves a cosine by less than
 * 0.005 (tests/unit/search-ivf.test.ts checks it), far less than the gap between the take-th and the 3 × take-th.
 */
const RESCORE_FACTOR = 3;
const RESCORE_MIN = 60;

/**
 * The vectors of a model that `scan` selects, each scored against `target` by its quantized copy (by the full
 * vector where a row written before the copy has none yet), read in pages by rowid.
 */
async function scanVectors(db: Db, model: string, scan: SQL, target: Float32Array, exclude?: string): Promise<Scored[]> {
  const out: Scored[] = [];
  for (let after = 0; ; ) {
    // hex(): D1 hands a blob over as an array of numbers, several times the bytes and far slower to read.
    const rows = await db.all<{ rowid: number; el_id: string; q: string | null; scale: number | null; vec: string | null }>(
      sql`SELECT rowid, el_id, hex(vec8) AS q, scale, CASE WHEN vec8 IS NULL THEN hex(vec) END AS vec FROM search_vectors
        WHERE model = ${literal(model)} AND ${scan} AND rowid > ${after}${exclude ? sql` AND el_id <> ${exclude}` : sql``}
        ORDER BY rowid LIMIT ${VECTOR_PAGE}`,
    );
    for (const { el_id, q, scale, vec } of rows) {
      const score =
        q !== null && scale !== null ? dotQuantized(new Int8Array(bytesOfHex(q).buffer), scale, target) : dot(fromHex(vec ?? ""), target);
      out.push({ el_id, score });
    }
    if (rows.length < VECTOR_PAGE) return out;
    after = rows[rows.length - 1].rowid;
  }
}

/** The exact cosines of `candidates` to `target`, from their full vectors. */
async function exactScores(db: Db, model: string, candidates: Scored[], target: Float32Array): Promise<Scored[]> {
  if (!candidates.length) return [];
  const rows = await db.all<{ el_id: string; vec: string }>(
    sql`SELECT el_id, hex(vec) AS vec FROM search_vectors WHERE model = ${literal(model)} AND el_id IN ${idList(candidates.map((c) => c.el_id))}`,
  );
  return rows.map(({ el_id, vec }) => ({ el_id, score: dot(fromHex(vec), target) }));
}

export async function storeVectors(db: Db, embedder: Embedder, docs: { elId: string; text: string }[]) {
  if (!docs.length) return;
  const vecs = await embedder.embed(docs.map((d) => d.text));
  await indexFor(db, embedder).upsert(docs.map((d, i) => ({ elId: d.elId, vec: vecs[i] })));
}

/** What an embedding of a document reads: its name and the start of its text. */
export const embeddingText = (name: string, body: string) => `${name}\n${body}`.slice(0, 2000);

interface Hit {
  el_id: string;
  el_type: "asset" | "group";
  name: string;
  mime: string | null;
  ctime: number;
  body: string;
  score: number;
}

/** The `take` readable documents nearest to `q` (or to the asset `like`), by cosine. */
export async function nearest(
  db: Db,
  auth: AuthUser,
  embedder: Embedder,
  query: { q?: string; like?: string },
  take: number,
): Promise<Hit[]> {
  // `like` names an object: one the caller cannot read answers 404 like a missing one, or the ranking would tell
  // whether it exists and what it is about.
  if (query.like) await requireAccess(db, auth, "read", [query.like]);
  const index = indexFor(db, embedder);
  const target = query.like ? await index.vectorOf(query.like) : (await embedder.embed([query.q ?? ""]))[0];
  if (!target) return [];
  const best = await index.query(await accessContext(db, auth), target, take, query.like);
  if (!best.length) return [];
  const docs = await db.all<Omit<Hit, "score">>(
    sql`SELECT el_id, el_type, name, mime, ctime, body FROM search_docs WHERE el_id IN ${idList(best.map((b) => b.el_id))}`,
  );
  const byId = new Map(docs.map((d) => [d.el_id, d]));
  return best.flatMap((b) => {
    const doc = byId.get(b.el_id);
    return doc ? [{ ...doc, score: Math.round(b.score * 1000) / 1000 }] : [];
  });
}
