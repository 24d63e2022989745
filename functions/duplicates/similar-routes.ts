import { getDb } from "../lib/db";
import { createApp } from "../lib/openapi";
import * as r from "../../shared/duplicates/contract";
import { similar } from "./similar";

/**
 * POST /api/search/similar, mounted next to search's routes (functions/index.ts): the look-alikes are duplicates'
 * (docs/decisions/058-duplicates-and-look-alikes.md), which read search's parser, so search does not import them back.
 */
const app = createApp();

app.openapi(r.similar, async (c) => c.json(await similar(getDb(c.env), c.get("auth"), c.req.valid("json")), 200));

export default app;
