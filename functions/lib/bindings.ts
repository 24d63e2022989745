/**
 * The shapes of the platform bindings the Worker uses beyond D1, R2 and Queues, declared here so that the
 * environment type (./env.ts) needs nothing from the resources that use them.
 */

/** The part of the Workers AI binding used here: text embeddings and speech recognition, each model with its own input. */
export interface WorkersAiLike {
  run(model: string, input: Record<string, unknown>): Promise<unknown>;
}

/** The part of a Vectorize (v2) index binding used here. */
export interface VectorizeLike {
  upsert(vectors: { id: string; values: number[] }[]): Promise<unknown>;
  query(vector: number[], options: { topK: number; returnValues?: boolean }): Promise<{ matches: { id: string; score: number }[] }>;
  getByIds(ids: string[]): Promise<{ id: string; values: number[] | Float32Array }[]>;
}
