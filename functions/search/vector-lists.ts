import { sql } from "drizzle-orm";
import type { Db } from "../lib/db";
import { rawBatch } from "../lib/sql";
import { kmeans, listCount, MIN_TRAIN, nearestList, quantize, SAMPLE_PER_LIST } from "./ivf";
import { fileInList, replaceCentroids, setQuantized } from "./sql";
import { centroidsOf, fromHex } from "./vector";
import type { Embedder } from "./vector-types";

/**
 * Keeps the local IVF index (docs/decisions/051-search-at-scale.md) fit for its vectors, from the cron: trains
 * the centroids once a model has MIN_TRAIN vectors and again whenever its count has doubled since (the lists
 * would otherwise grow long), then files the vectors not yet in a list, `budget` a run. Until they are filed,
 * queries read them all, so results stay complete while the index catches up. Vectors stored before queries
 * ranked by quantized copies get theirs here (queries score such a row by its full vector meanwhile).
 */
export async function maintainVectorLists(db: Db, embedder: Embedder | null, budget = 20_000): Promise<void> {
  if (!embedder || embedder.vectorize) return;
  const model = embedder.model;
  const counts = await db.get<{ n: number; trained: number | null }>(
    sql`SELECT (SELECT count(*) FROM search_vectors WHERE model = ${model}) AS n,
      (SELECT max(trained_on) FROM search_vector_lists WHERE model = ${model}) AS trained`,
  );
  const n = counts?.n ?? 0;
  if (n >= MIN_TRAIN && (!counts?.trained || n >= 2 * counts.trained)) await train(db, model, n);
  await quantizeOlder(db, model, budget);
  const { lists, centroids } = await centroidsOf(db, model);
  if (!centroids.length) return;
  for (let done = 0; done < budget; ) {
    const rows = await db.all<{ rowid: number; vec: string }>(
      sql`SELECT rowid, hex(vec) AS vec FROM search_vectors WHERE model = ${model} AND list IS NULL LIMIT 500`,
    );
    if (!rows.length) break;
    const byList = new Map<number, number[]>();
    for (const r of rows) {
      const list = lists[nearestList(centroids, fromHex(r.vec))];
      byList.set(list, [...(byList.get(list) ?? []), r.rowid]);
    }
    await rawBatch(
      db,
      [...byList].map(([list, ids]) => fileInList(list, ids)),
    );
    done += rows.length;
  }
}

/** New centroids from a random sample (sampled by rowid through the list index: no vector is read to pick). */
async function train(db: Db, model: string, n: number) {
  const k = listCount(n);
  const sample = await db.all<{ vec: string }>(
    sql`SELECT hex(vec) AS vec FROM search_vectors WHERE rowid IN
      (SELECT rowid FROM search_vectors WHERE model = ${model} ORDER BY random() LIMIT ${k * SAMPLE_PER_LIST})`,
  );
  const centroids = kmeans(
    sample.map((r) => fromHex(r.vec)),
    k,
  );
  await rawBatch(
    db,
    replaceCentroids(
      model,
      centroids.map((c) => new Uint8Array(c.buffer, c.byteOffset, c.byteLength)),
      n,
    ),
  );
}

/** Quantized copies (ivf.ts quantize) for vectors stored without one, `budget` a run. */
async function quantizeOlder(db: Db, model: string, budget: number) {
  for (let done = 0; done < budget; ) {
    const rows = await db.all<{ rowid: number; vec: string }>(
      sql`SELECT rowid, hex(vec) AS vec FROM search_vectors WHERE model = ${model} AND vec8 IS NULL LIMIT 500`,
    );
    if (!rows.length) return;
    await rawBatch(
      db,
      rows.map((r) => {
        const { q, scale } = quantize(fromHex(r.vec));
        return setQuantized(r.rowid, new Uint8Array(q.buffer), scale);
      }),
    );
    done += rows.length;
  }
}
