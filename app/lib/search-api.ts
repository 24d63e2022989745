import type { z } from "zod";
import type { ragAnswer, searchAnswer, searchItem, searchQueryBody, suggestion } from "../../functions/search/schemas";
import { api } from "./api";

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

export const similarTo = (assetId: string) => api<SearchItem[]>("/search/vector", { method: "POST", body: { like: assetId, take: 20 } });

export const askAnswer = (question: string, filters: SearchQuery["filters"]) =>
  api<RagAnswer>("/search/rag", { method: "POST", body: { question, filters } });
