import type { z } from "zod";
import type { duplicatesOfAnswer } from "../../shared/duplicates/schemas";
import * as duplicates from "../../shared/duplicates/contract";
import { call } from "./api";
import { createStore } from "./store";

export type DuplicatesOf = z.infer<typeof duplicatesOfAnswer>;

/** The transcoder hashes a file within seconds of the upload; past this the panel stops asking and says nothing. */
const GIVE_UP_MS = 10 * 60_000;

/** Per uploaded asset: the duplicates answer once the transcoder has hashed it (absent: still being checked). */
export const duplicatesStore = createStore<ReadonlyMap<string, DuplicatesOf>>(new Map());

const watched = new Set<string>();

const record = (assetId: string, answer: DuplicatesOf) => duplicatesStore.set(new Map(duplicatesStore.get()).set(assetId, answer));

/**
 * Asks `GET /api/duplicates/of/{id}` after an upload completed (the upload queue calls this), slower and slower, until
 * the transcoder has hashed the stored bytes; the answer goes to duplicatesStore, which the upload panel shows
 * (docs/decisions/058-duplicates-and-look-alikes.md). A deleted asset or a lost connection is asked again later;
 * after GIVE_UP_MS it counts as unique.
 */
export function watchDuplicates(assetId: string) {
  if (watched.has(assetId)) return;
  watched.add(assetId);
  const started = Date.now();
  const poll = async (delay: number) => {
    try {
      const answer = await call(duplicates.duplicatesOf, { params: { asset_id: assetId } });
      if (answer.known) return record(assetId, answer);
    } catch {
      // asked again below
    }
    if (Date.now() - started < GIVE_UP_MS) setTimeout(() => void poll(Math.min(delay * 1.5, 10_000)), delay);
    else record(assetId, { known: true, sha256: null, items: [] });
  };
  void poll(1000);
}
