import { expect } from "vitest";
import { admin, call } from "./fixtures";

/** Set-up and calls for the search tests: a corpus through the API, then the search answers. */

export interface Hit {
  el_id: string;
  el_type: string;
  name: string;
  score: number;
  snippet: string;
  mime?: string;
  preview?: string;
}
export interface Answer {
  total: number;
  items: Hit[];
  facets: Record<"mime" | "class" | "tags" | "taxon", { value: string; label: string; count: number }[]>;
}

export async function search(json: Record<string, unknown>, bearer?: string): Promise<Answer> {
  const r = await call("/api/search/query", { method: "POST", json, bearer: bearer ?? (await admin()) });
  expect(r.status, r.text).toBe(200);
  return r.body;
}

/** Names of the hits of `q` within a group. */
export const names = async (q: string, group: string, bearer?: string, extra: Record<string, unknown> = {}) =>
  (await search({ q, ...extra, filters: { group, ...(extra.filters as object) } }, bearer)).items.map((i) => i.name).sort();

export async function mkNamed(group: string, name: string, mime = "image/jpeg"): Promise<string> {
  const r = await call("/api/asset/create", {
    method: "POST",
    json: { asset_name: name, asset_mime: mime, in_group: group },
    bearer: await admin(),
  });
  expect(r.status, r.text).toBe(200);
  return r.body.asset_id;
}

export async function tagWith(tagId: string, assetId: string) {
  const r = await call("/api/tags/attach", {
    method: "POST",
    json: { tag_ids: [tagId], entities: [{ id: assetId, type: "asset" }] },
    bearer: await admin(),
  });
  expect(r.status, r.text).toBe(200);
}

/**
 * A stand-in for an embeddings model: a vector of concepts, where words of one meaning share a concept (a
 * dimension). Only the third-party model is replaced; the Worker's client, storage and ranking run as in production.
 */
export const concepts = [
  ["кошк", "котен", "кот"],
  ["соф", "диван"],
  ["спит", "сон", "дрем"],
  ["волн", "мор"],
];
export const conceptEmbedding = (text: string) =>
  concepts.map((stems) => (stems.some((s) => text.toLowerCase().replace(/ё/g, "е").includes(s)) ? 1 : 0.01));
