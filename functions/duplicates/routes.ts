import { getDb } from "../lib/db";
import { errorAnswers, createApp, routeDefiner } from "../lib/openapi";
import * as s from "./schemas";
import { duplicateSets, duplicatesOf } from "./service";
import { mergeAsVersion } from "./merge";
import { nearSets } from "./similar";

/**
 * /api/duplicates (docs/decisions/058-duplicates-and-look-alikes.md): identical originals by SHA-256 and, with
 * near=true, look-alike sets by perceptual fingerprint. Every answer names only assets the caller can read.
 */
const app = createApp();
const route = routeDefiner(
  ["duplicates"],
  errorAnswers({
    403: "The caller may read the assets but lacks update on the target or delete on the copy",
    404: "No such asset, or one the caller may not read",
    409: "The copy has no content yet, or an upload into it is still going",
  }),
);

app.openapi(
  route(
    "get",
    "/of/{asset_id}",
    "The other readable assets whose latest original has the same bytes (known: false until the transcoder hashed it)",
    { params: s.assetIdParam },
    s.duplicatesOfAnswer,
  ),
  async (c) => c.json(await duplicatesOf(getDb(c.env), c.get("auth"), c.req.valid("param").asset_id), 200),
);

app.openapi(
  route(
    "get",
    "/",
    "Sets of identical originals among the readable assets (admins: all), most bytes freed first; near=true: look-alike sets",
    { query: s.duplicatesQuery },
    s.duplicatesAnswer,
  ),
  async (c) => {
    const q = c.req.valid("query");
    const db = getDb(c.env);
    const auth = c.get("auth");
    return c.json(q.near ? await nearSets(db, auth, q) : await duplicateSets(db, auth, q), 200);
  },
);

app.openapi(
  route(
    "post",
    "/{asset_id}/as-version-of/{target_id}",
    "Make an uploaded copy the next version of the asset it duplicates: its stored objects move, the copy is deleted",
    { params: s.mergeParams },
    s.mergeAnswer,
  ),
  async (c) => {
    const p = c.req.valid("param");
    return c.json(await mergeAsVersion(getDb(c.env), c.get("auth"), p.asset_id, p.target_id), 200);
  },
);

export default app;
