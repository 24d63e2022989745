import { z } from "@hono/zod-openapi";
import { fieldFilter } from "../fields/schemas";
import { entityId } from "../users/schemas";

/** Search (docs/decisions/045-search.md). Shared with the front end: no server imports. */

export const MAX_SEARCH_PAGE = 100;
export const SEARCH_PAGE = 50;
export const searchSorts = ["relevance", "name", "ctime", "size"] as const;
export type SearchSort = (typeof searchSorts)[number];

const ids = (what: string) => z.array(entityId).max(50, `не больше 50 ${what}`);
const range = (what: string) =>
  z
    .tuple([z.number({ error: "должно быть числом" }).min(0).nullable(), z.number({ error: "должно быть числом" }).min(0).nullable()], {
      error: `ожидается [от, до] (${what}; null — без границы)`,
    })
    .refine(([a, b]) => a === null || b === null || a <= b, "начало больше конца");

export const searchFilters = z
  .object({
    mime: z
      .array(z.string().trim().min(1, "не может быть пустым").max(100))
      .max(20, "не больше 20 типов")
      .optional()
      .openapi({ description: 'mime prefixes: "image" or "image/" matches every image/*' }),
    class: ids("классов").optional(),
    tags: ids("тегов").optional().openapi({ description: "every one of these tags" }),
    taxon: ids("таксонов").optional().openapi({ description: "filed under any of these taxa or their descendants" }),
    group: entityId.optional().openapi({ description: "in this group or its subtree" }),
    fields: z.array(fieldFilter).max(10, "не больше 10 условий").optional(),
    ctime: range("секунды Unix").optional(),
    size: range("байты").optional(),
  })
  .openapi("SearchFilters");
export type SearchFilters = z.infer<typeof searchFilters>;

export const searchQueryBody = z
  .object({
    q: z.string().max(500, "не длиннее 500 символов").default(""),
    filters: searchFilters.optional(),
    sort: z.enum(searchSorts, { error: `должен быть одним из ${searchSorts.join(", ")}` }).default("relevance"),
    order: z
      .enum(["asc", "desc"], { error: "asc или desc" })
      .optional()
      .openapi({ description: "default: best first, names A→Я, newest and largest first" }),
    skip: z.number().int().min(0).max(100_000).default(0),
    take: z.number().int().min(1).max(MAX_SEARCH_PAGE, `не больше ${MAX_SEARCH_PAGE}`).default(SEARCH_PAGE),
  })
  .openapi("SearchQueryBody");
export type SearchQueryBody = z.infer<typeof searchQueryBody>;

export const searchItem = z
  .object({
    el_id: z.string(),
    el_type: z.enum(["asset", "group"]),
    name: z.string(),
    score: z.number(),
    snippet: z.string().openapi({ description: "HTML-escaped text with the hits in <mark>…</mark>" }),
    mime: z.string().optional(),
    size: z.number().int().optional(),
    ctime: z.number().int(),
    preview: z.string().optional().openapi({ description: "the preview image's path, for an asset that has one" }),
    at: z
      .number()
      .optional()
      .openapi({ description: "found in the asset's transcript: the segment's start in seconds (the snippet is that segment's)" }),
  })
  .openapi("SearchItem");
export type SearchItem = z.infer<typeof searchItem>;

const facet = z.array(z.object({ value: z.string(), label: z.string(), count: z.number().int() }));
export const searchFacets = z.object({ mime: facet, class: facet, tags: facet, taxon: facet }).openapi("SearchFacets");
export type SearchFacets = z.infer<typeof searchFacets>;
export type FacetName = keyof SearchFacets;

export const searchAnswer = z.object({ total: z.number().int(), items: z.array(searchItem), facets: searchFacets }).openapi("SearchAnswer");
export type SearchAnswer = z.infer<typeof searchAnswer>;

export const autocompleteKinds = ["asset", "group", "tag", "taxon", "field"] as const;
export const autocompleteQuery = z.object({
  q: z.string().max(100, "не длиннее 100 символов"),
  take: z.coerce.number({ error: "должно быть числом" }).int("должно быть целым").min(1).max(20, "не больше 20").default(8),
});
export const suggestion = z
  .object({ text: z.string(), kind: z.enum(autocompleteKinds), id: z.string(), typo: z.boolean().optional() })
  .openapi("SearchSuggestion");
export type Suggestion = z.infer<typeof suggestion>;

export const vectorBody = z
  .object({
    q: z.string().trim().min(1, "не может быть пустым").max(500).optional(),
    like: entityId.optional().openapi({ description: "an asset: find those like it" }),
    take: z.number().int().min(1).max(100).default(20),
  })
  .refine((b) => (b.q === undefined) !== (b.like === undefined), { path: ["q"], message: "нужно ровно одно из q и like" })
  .openapi("SearchVectorBody");
export type VectorBody = z.infer<typeof vectorBody>;

export const ragBody = z
  .object({
    question: z.string().trim().min(1, "не может быть пустым").max(1000, "не длиннее 1000 символов"),
    filters: searchFilters.optional(),
  })
  .openapi("SearchRagBody");
export type RagBody = z.infer<typeof ragBody>;

export const citation = z.object({
  el_id: z.string(),
  name: z.string(),
  snippet: z.string(),
  at: z.number().optional().openapi({ description: "a transcript's source: the start in seconds of the segment it says it in" }),
});
export const ragAnswer = z
  .object({
    answer: z.string().openapi({ description: "sentences, each ending with its citation's number in brackets: [1]" }),
    citations: z.array(citation),
    mode: z.enum(["generated", "extractive"]),
  })
  .openapi("SearchRagAnswer");
export type RagAnswer = z.infer<typeof ragAnswer>;
