import { getDb } from "../lib/db";
import { createApp, errorResponses, jsonBody, routeDefiner } from "../lib/openapi";
import { similarBody, similarItem } from "./schemas";
import { similar } from "./similar";

/**
 * POST /api/search/similar, mounted next to search's routes (functions/index.ts): the look-alikes are duplicates'
 * (docs/decisions/058-duplicates-and-look-alikes.md), which read search's parser, so search does not import them back.
 */
const app = createApp();
const route = routeDefiner(["search"], errorResponses);

app.openapi(
  route(
    "post",
    "/similar",
    "Assets that look like an asset by perceptual fingerprint, nearest first (no model needed; 404 for an unreadable or missing like)",
    { body: jsonBody(similarBody) },
    similarItem.array(),
  ),
  async (c) => c.json(await similar(getDb(c.env), c.get("auth"), c.req.valid("json")), 200),
);

export default app;
