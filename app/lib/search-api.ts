import type { z } from "zod";
import type { ragAnswer, searchAnswer, searchItem, searchQueryBody, suggestion } from "../../functions/search/schemas";
import { ApiError, api } from "./api";

/** Search (POST /api/search/query, autocomplete, vector, rag); types from the API's own schemas. */
export type SearchAnswer = z.infer<typeof searchAnswer>;
export type SearchItem = z.infer<typeof searchItem>;
export type SearchQuery = z.input<typeof searchQueryBody>;
export type Suggestion = z.infer<typeof suggestion>;
export type RagAnswer = z.infer<typeof ragAnswer>;

export const searchQuery = (body: SearchQuery, signal?: AbortSignal) =>
  api<SearchAnswer>("/search/query", { method: "POST", body, signal });

export const autocomplete = (q: string, signal?: AbortSignal) =>
  api<Suggestion[]>(`/search/autocomplete?q=${encodeURIComponent(q)}&take=8`, { signal });

/** What «Похожие» found, and by what: semantic vectors when a model is configured, else perceptual fingerprints. */
export type SimilarAnswer = { by: "meaning" | "image"; items: SearchItem[] };

export async function similarTo(assetId: string): Promise<SimilarAnswer> {
  try {
    return { by: "meaning", items: await api<SearchItem[]>("/search/vector", { method: "POST", body: { like: assetId, take: 20 } }) };
  } catch (error) {
    // 503: no embeddings model; the picture's fingerprint needs none (docs/decisions/058-duplicates-and-look-alikes.md).
    if (!(error instanceof ApiError) || error.status !== 503) throw error;
    return { by: "image", items: await api<SearchItem[]>("/search/similar", { method: "POST", body: { like: assetId, take: 20 } }) };
  }
}

export const askAnswer = (question: string, filters: SearchQuery["filters"]) =>
  api<RagAnswer>("/search/rag", { method: "POST", body: { question, filters } });
