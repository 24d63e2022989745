import { sql } from "drizzle-orm";
import { accessContext } from "../lib/access";
import { type Db, rawBatch, rawStatement } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { idList, literal } from "../lib/sql";
import { readableDocs } from "./readable";

/**
 * Semantic search (docs/decisions/045-search.md): an Embedder turns text into vectors, a VectorIndex finds the
 * nearest. Production would bind Workers AI and Vectorize; here the embedder is an OpenAI-compatible endpoint
 * (EMBEDDINGS_URL) and the index is search_vectors, searched exhaustively within what the caller can read.
 * Without an endpoint nothing pretends: the API answers 503 "Семантический поиск не настроен".
 */

export interface Embedder {
  model: string;
  embed(texts: string[]): Promise<Float32Array[]>;
}

export const NOT_CONFIGURED = "Семантический поиск не настроен";

/** Vectors read per query of the exhaustive search. */
const VECTOR_PAGE = 500;

export function embedderFrom(env: Env): Embedder | null {
  const url = env.EMBEDDINGS_URL;
  if (!url) return null;
  const model = env.EMBEDDINGS_MODEL || "bge-m3";
  const send = env.EMBEDDINGS_FETCH ?? { fetch: (input: RequestInfo, init?: RequestInit) => fetch(input, init) };
  return {
    model,
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

/** Unit length, so the dot product is the cosine. */
function normalize(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  const len = Math.sqrt(n) || 1;
  return v.map((x) => x / len);
}

const toBlob = (v: Float32Array) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
const fromBlob = (b: ArrayBuffer | Uint8Array | number[]) =>
  new Float32Array(b instanceof ArrayBuffer ? b : Uint8Array.from(b as ArrayLike<number>).buffer);

/** What an embedding of a document reads: its name and the start of its text. */
export const embeddingText = (name: string, body: string) => `${name}\n${body}`.slice(0, 2000);

export async function storeVectors(db: Db, embedder: Embedder, docs: { elId: string; text: string }[]) {
  if (!docs.length) return;
  const vecs = await embedder.embed(docs.map((d) => d.text));
  // Raw statements: drizzle's batch cannot bind a blob into raw SQL.
  await rawBatch(
    db,
    docs.map((d, i) =>
      rawStatement(
        `INSERT INTO search_vectors (el_id, model, vec) VALUES (?, ?, ?)
          ON CONFLICT (el_id) DO UPDATE SET model = excluded.model, vec = excluded.vec, ctime = unixepoch()`,
        d.elId,
        embedder.model,
        toBlob(vecs[i]),
      ),
    ),
  );
}

interface Hit {
  el_id: string;
  el_type: "asset" | "group";
  name: string;
  mime: string | null;
  ctime: number;
  body: string;
  score: number;
}

/** The `take` readable documents nearest to `vec` (or to the asset `like`), by cosine. */
export async function nearest(
  db: Db,
  auth: AuthUser,
  embedder: Embedder,
  query: { q?: string; like?: string },
  take: number,
): Promise<Hit[]> {
  let target: Float32Array;
  if (query.like) {
    const row = await db.get<{ vec: ArrayBuffer }>(
      sql`SELECT vec FROM search_vectors WHERE el_id = ${query.like} AND model = ${embedder.model}`,
    );
    if (!row) return [];
    target = fromBlob(row.vec);
  } else [target] = await embedder.embed([query.q ?? ""]);
  const ctx = await accessContext(db, auth);
  // Read in pages by rowid, keeping only the best `take`: all vectors at once would not fit one D1 answer.
  let best: { el_id: string; score: number }[] = [];
  for (let after = 0; ; ) {
    const rows = await db.all<{ rowid: number; el_id: string; vec: ArrayBuffer }>(
      sql`SELECT v.rowid, v.el_id, v.vec FROM search_vectors v JOIN search_docs d ON d.el_id = v.el_id
        WHERE v.rowid > ${after} AND v.model = ${literal(embedder.model)} AND ${readableDocs(ctx)}${query.like ? sql` AND v.el_id <> ${query.like}` : sql``}
        ORDER BY v.rowid LIMIT ${VECTOR_PAGE}`,
    );
    for (const { el_id, vec } of rows) {
      const v = fromBlob(vec);
      let dot = 0;
      for (let i = 0; i < v.length; i++) dot += v[i] * target[i];
      best.push({ el_id, score: Math.round(dot * 1000) / 1000 });
    }
    best = best.sort((a, b) => b.score - a.score).slice(0, take);
    if (rows.length < VECTOR_PAGE) break;
    after = rows[rows.length - 1].rowid;
  }
  if (!best.length) return [];
  const docs = await db.all<Omit<Hit, "score">>(
    sql`SELECT el_id, el_type, name, mime, ctime, body FROM search_docs WHERE el_id IN ${idList(best.map((b) => b.el_id))}`,
  );
  const byId = new Map(docs.map((d) => [d.el_id, d]));
  return best.flatMap((b) => {
    const doc = byId.get(b.el_id);
    return doc ? [{ ...doc, score: b.score }] : [];
  });
}
