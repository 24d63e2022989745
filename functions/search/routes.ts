import { getDb } from "../lib/db";
import { ApiError } from "../lib/errors";
import { createApp, errorResponses, jsonBody, routeDefiner } from "../lib/openapi";
import { autocomplete } from "./autocomplete";
import { chatFrom } from "./chat";
import { catchUp } from "./indexer";
import { parseQuery, snippet } from "./match";
import { answer } from "./rag";
import { runSearch } from "./query";
import * as s from "./schemas";
import { withTranscriptTimes } from "./transcript-hits";
import { embedderFrom, nearest, NOT_CONFIGURED } from "./vector";

/** /api/search (docs/decisions/045-search.md): every answer lists only what the caller can read. */
const app = createApp();
const route = routeDefiner(["search"], errorResponses);

app.openapi(
  route("post", "/query", "Full-text search with filters, facets, sort and paging", { body: jsonBody(s.searchQueryBody) }, s.searchAnswer),
  async (c) => {
    const db = getDb(c.env);
    const q = c.req.valid("json");
    const found = await runSearch(db, c.get("auth"), q, embedderFrom(c.env), (work) => c.executionCtx.waitUntil(work));
    return c.json(await withTranscriptTimes(db, found, q.q), 200);
  },
);

app.openapi(
  route(
    "get",
    "/autocomplete",
    "Names starting with q (tags, taxa, fields, assets, groups), then one-typo matches",
    { query: s.autocompleteQuery },
    s.suggestion.array(),
  ),
  async (c) => {
    const db = getDb(c.env);
    await catchUp(db, embedderFrom(c.env));
    const q = c.req.valid("query");
    return c.json(await autocomplete(db, c.get("auth"), q.q, q.take), 200);
  },
);

app.openapi(
  route(
    "post",
    "/vector",
    "Semantic search: assets nearest in meaning to q, or like an asset (503 when no model is configured)",
    { body: jsonBody(s.vectorBody) },
    s.searchItem.array(),
  ),
  async (c) => {
    const embedder = embedderFrom(c.env);
    if (!embedder) throw new ApiError("unavailable", NOT_CONFIGURED);
    const db = getDb(c.env);
    await catchUp(db, embedder);
    const b = c.req.valid("json");
    const marks = parseQuery(b.q ?? "", true);
    const hits = await nearest(db, c.get("auth"), embedder, b, b.take);
    return c.json(
      hits.map((h) => ({
        el_id: h.el_id,
        el_type: h.el_type,
        name: h.name,
        score: h.score,
        snippet: snippet(h.name, h.body, marks),
        ctime: h.ctime,
        ...(h.mime ? { mime: h.mime } : {}),
      })),
      200,
    );
  },
);

app.openapi(
  route("post", "/rag", "An answer from the readable assets, every sentence with its citation", { body: jsonBody(s.ragBody) }, s.ragAnswer),
  async (c) => {
    const db = getDb(c.env);
    await catchUp(db, embedderFrom(c.env));
    return c.json(await answer(db, c.get("auth"), c.req.valid("json"), chatFrom(c.env)), 200);
  },
);

export default app;
