import { getDb } from "../lib/db";
import { createApp } from "../lib/openapi";
import * as r from "../../shared/duplicates/contract";
import { duplicateSets, duplicatesOf } from "./service";
import { mergeAsVersion } from "./merge";
import { nearSets } from "./similar";

/**
 * /api/duplicates, the handlers of ./contract.ts's routes (docs/decisions/058-duplicates-and-look-alikes.md): identical originals by SHA-256 and, with
 * near=true, look-alike sets by perceptual fingerprint. Every answer names only assets the caller can read.
 */
const app = createApp();

app.openapi(r.duplicatesOf, async (c) => c.json(await duplicatesOf(getDb(c.env), c.get("auth"), c.req.valid("param").asset_id), 200));

app.openapi(r.duplicateSets, async (c) => {
  const q = c.req.valid("query");
  const db = getDb(c.env);
  const auth = c.get("auth");
  return c.json(q.near ? await nearSets(db, auth, q) : await duplicateSets(db, auth, q), 200);
});

app.openapi(r.mergeAsVersion, async (c) => {
  const p = c.req.valid("param");
  return c.json(await mergeAsVersion(getDb(c.env), c.env, c.get("auth"), p.asset_id, p.target_id), 200);
});

export default app;
