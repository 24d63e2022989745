import { errorResponses, jsonBody, routeDefiner } from "../lib/route-contract";
import * as s from "./schemas";

/**
 * /api/search, served by ./routes.ts and called by the browser through call() (docs/decisions/070-route-contracts.md,
 * 045-search.md): every answer lists only what the caller can read.
 */
const route = routeDefiner(["search"], errorResponses);

export const searchQuery = route(
  "post",
  "/search/query",
  "Full-text search with filters, facets, sort and paging",
  { body: jsonBody(s.searchQueryBody) },
  s.searchAnswer,
);
export const autocomplete = route(
  "get",
  "/search/autocomplete",
  "Names starting with q (tags, taxa, fields, assets, groups), then one-typo matches",
  { query: s.autocompleteQuery },
  s.suggestion.array(),
);
export const vectorSearch = route(
  "post",
  "/search/vector",
  "Semantic search: assets nearest in meaning to q, or like an asset (503 when no model is configured)",
  { body: jsonBody(s.vectorBody) },
  s.searchItem.array(),
);
export const rag = route(
  "post",
  "/search/rag",
  "An answer from the readable assets, every sentence with its citation",
  { body: jsonBody(s.ragBody) },
  s.ragAnswer,
);
