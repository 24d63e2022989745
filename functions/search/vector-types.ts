import type { AccessContext } from "../lib/access";
import type { VectorizeLike } from "../lib/bindings";

/** The parts of semantic search (./vector.ts) that the production adapters (./vector-cloud.ts) implement too. */

export interface Embedder {
  model: string;
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Where its vectors live when not in the database: a bound Vectorize index. */
  vectorize?: VectorizeLike;
}

/** A document's similarity to the query vector: the cosine, exact (computed from the stored vector). */
export interface Scored {
  el_id: string;
  score: number;
}

export interface VectorIndex {
  /** Stores (or replaces) the vectors of documents. */
  upsert(items: { elId: string; vec: Float32Array }[]): Promise<void>;
  /** The stored vector of a document (a `like` query), or null. */
  vectorOf(elId: string): Promise<Float32Array | null>;
  /** The `take` documents nearest to `target` among those `ctx` may read, best first; `exclude` never. */
  query(ctx: AccessContext, target: Float32Array, take: number, exclude?: string): Promise<Scored[]>;
}
