import { getDb } from "../lib/db";
import { ApiError } from "../lib/errors";
import { createApp } from "../lib/openapi";
import { autocomplete } from "./autocomplete";
import { chatFrom } from "./chat";
import * as r from "../../shared/search/contract";
import { catchUp } from "./indexer";
import { parseQuery, snippet } from "./match";
import { answer } from "./rag";
import { runSearch } from "./query";
import { withTranscriptTimes } from "./transcript-hits";
import { embedderFrom, nearest, NOT_CONFIGURED } from "./vector";

/** /api/search: the handlers of ./contract.ts's routes (docs/decisions/045-search.md). */
const app = createApp();

app.openapi(r.searchQuery, async (c) => {
  const db = getDb(c.env);
  const q = c.req.valid("json");
  const found = await runSearch(db, c.get("auth"), q, embedderFrom(c.env), (work) => c.executionCtx.waitUntil(work));
  return c.json(await withTranscriptTimes(db, found, q.q), 200);
});

app.openapi(r.autocomplete, async (c) => {
  const db = getDb(c.env);
  await catchUp(db, embedderFrom(c.env));
  const q = c.req.valid("query");
  return c.json(await autocomplete(db, c.get("auth"), q.q, q.take), 200);
});

app.openapi(r.vectorSearch, async (c) => {
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
});

app.openapi(r.rag, async (c) => {
  const db = getDb(c.env);
  await catchUp(db, embedderFrom(c.env));
  return c.json(await answer(db, c.get("auth"), c.req.valid("json"), chatFrom(c.env)), 200);
});

export default app;
