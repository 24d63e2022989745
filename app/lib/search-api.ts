import type { z } from "zod";
import type { ragAnswer, searchAnswer, searchItem, searchQueryBody, suggestion } from "../../shared/search/schemas";
import * as similarRoutes from "../../shared/duplicates/contract";
import * as search from "../../shared/search/contract";
import { ApiError, call } from "./api";

/** Search (POST /api/search/query, autocomplete, vector, rag); types from the API's own schemas. */
export type SearchAnswer = z.infer<typeof searchAnswer>;
export type SearchItem = z.infer<typeof searchItem>;
export type SearchQuery = z.input<typeof searchQueryBody>;
export type Suggestion = z.infer<typeof suggestion>;
export type RagAnswer = z.infer<typeof ragAnswer>;

export const searchQuery = (body: SearchQuery, signal?: AbortSignal) => call(search.searchQuery, { body, signal });

export const autocomplete = (q: string, signal?: AbortSignal) => call(search.autocomplete, { query: { q, take: 8 }, signal });

/** What «Похожие» found, and by what: semantic vectors when a model is configured, else perceptual fingerprints. */
export type SimilarAnswer = { by: "meaning" | "image"; items: SearchItem[] };

export async function similarTo(assetId: string): Promise<SimilarAnswer> {
  try {
    return { by: "meaning", items: await call(search.vectorSearch, { body: { like: assetId, take: 20 } }) };
  } catch (error) {
    // 503: no embeddings model; the picture's fingerprint needs none (docs/decisions/058-duplicates-and-look-alikes.md).
    if (!(error instanceof ApiError) || error.status !== 503) throw error;
    return { by: "image", items: await call(similarRoutes.similar, { body: { like: assetId, take: 20 } }) };
  }
}

export const askAnswer = (question: string, filters: SearchQuery["filters"]) => call(search.rag, { body: { question, filters } });
