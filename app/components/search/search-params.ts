import type { SearchSort } from "../../../shared/search/schemas";
import { SEARCH_PAGE, searchSorts } from "../../../shared/search/schemas";
import type { SearchQuery } from "../../lib/search-api";

/**
 * The search lives in the address (/search?q=…&mime=image&tags=…&sort=name&page=2&view=grid), so a search
 * can be bookmarked and shared and the back button restores it. Multi-valued filters repeat their key.
 */

export type FacetKey = "mime" | "class" | "tags" | "taxon";
export const facetKeys: FacetKey[] = ["mime", "class", "tags", "taxon"];

export interface SearchState {
  q: string;
  facets: Record<FacetKey, string[]>;
  group: string | null;
  sort: SearchSort;
  order: "asc" | "desc" | null;
  page: number;
  view: "list" | "grid";
}

export function readState(params: URLSearchParams): SearchState {
  const sort = params.get("sort");
  const order = params.get("order");
  return {
    q: params.get("q") ?? "",
    facets: Object.fromEntries(facetKeys.map((k) => [k, params.getAll(k)])) as Record<FacetKey, string[]>,
    group: params.get("group"),
    sort: searchSorts.includes(sort as SearchSort) ? (sort as SearchSort) : "relevance",
    order: order === "asc" || order === "desc" ? order : null,
    page: Math.max(1, Number(params.get("page")) || 1),
    view: params.get("view") === "grid" ? "grid" : "list",
  };
}

export function writeState(s: SearchState): URLSearchParams {
  const p = new URLSearchParams();
  if (s.q) p.set("q", s.q);
  for (const k of facetKeys) for (const v of s.facets[k]) p.append(k, v);
  if (s.group) p.set("group", s.group);
  if (s.sort !== "relevance") p.set("sort", s.sort);
  if (s.order) p.set("order", s.order);
  if (s.page > 1) p.set("page", String(s.page));
  if (s.view === "grid") p.set("view", "grid");
  return p;
}

/** Whether there is anything to search for: a query or a filter. */
export const isAsking = (s: SearchState) => s.q.trim() !== "" || s.group !== null || facetKeys.some((k) => s.facets[k].length > 0);

export function toQuery(s: SearchState): SearchQuery {
  const f = s.facets;
  const filters: NonNullable<SearchQuery["filters"]> = {
    ...(f.mime.length ? { mime: f.mime } : {}),
    ...(f.class.length ? { class: f.class } : {}),
    ...(f.tags.length ? { tags: f.tags } : {}),
    ...(f.taxon.length ? { taxon: f.taxon } : {}),
    ...(s.group ? { group: s.group } : {}),
  };
  return {
    q: s.q,
    filters,
    sort: s.sort,
    ...(s.order ? { order: s.order } : {}),
    skip: (s.page - 1) * SEARCH_PAGE,
    take: SEARCH_PAGE,
  };
}
