import type { Db } from "../lib/db";
import { readableOf } from "./readable";
import { normalize } from "./ivf";
import type { VectorizeLike, WorkersAiLike } from "../lib/bindings";
import type { Embedder, Scored, VectorIndex } from "./vector-types";

/**
 * Production's semantic search (docs/decisions/051-search-at-scale.md): Workers AI embeds (binding AI,
 * `@cf/baai/bge-m3`, multilingual, 1024 dimensions) and Vectorize keeps and searches the vectors (binding
 * VECTORIZE, cosine). Neither runs locally; tests drive these adapters with fake bindings of the same shape.
 */

export const WORKERS_AI_MODEL = "@cf/baai/bge-m3";

/** Texts per Workers AI call: the embedding models take batches of up to 100. */
const AI_BATCH = 50;

export function workersAiEmbedder(ai: WorkersAiLike, model = WORKERS_AI_MODEL): Embedder {
  return {
    model,
    async embed(texts) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += AI_BATCH) {
        const answer = (await ai.run(model, { text: texts.slice(i, i + AI_BATCH) })) as { data?: number[][] };
        if (!Array.isArray(answer?.data)) throw new Error("Workers AI: no embeddings in the answer");
        out.push(...answer.data.map((v) => normalize(Float32Array.from(v))));
      }
      return out;
    },
  };
}

/** Vectorize answers at most this many matches without values; the access filter runs on them. */
const VECTORIZE_TOP = 100;

/**
 * Vectorize cannot know who may read what (access changes with groups and rules, not with the vectors), so a
 * query asks for the 100 nearest and keeps those the caller may read, by the access engine's SQL on
 * search_docs — which also drops documents deleted since their vector was stored. Scores are Vectorize's
 * cosine of the stored vectors. A caller who may read little of the archive can get fewer than `take`.
 */
export function vectorizeIndex(db: Db, index: VectorizeLike): VectorIndex {
  return {
    async upsert(items) {
      if (items.length) await index.upsert(items.map(({ elId, vec }) => ({ id: elId, values: Array.from(vec) })));
    },
    async vectorOf(elId) {
      const [found] = await index.getByIds([elId]);
      return found ? Float32Array.from(found.values) : null;
    },
    async query(ctx, target, take, exclude) {
      const { matches } = await index.query(Array.from(target), { topK: VECTORIZE_TOP, returnValues: false });
      const candidates = matches.filter((m) => m.id !== exclude);
      if (!candidates.length) return [];
      const ok = await readableOf(
        db,
        ctx,
        candidates.map((m) => m.id),
      );
      return candidates
        .filter((m) => ok.has(m.id))
        .sort((a, b) => b.score - a.score)
        .slice(0, take)
        .map((m): Scored => ({ el_id: m.id, score: m.score }));
    },
  };
}
