import { getDb } from "../lib/db";
import { createApp } from "../lib/openapi";
import * as r from "../../shared/sl/contract";
import publicRoutes from "./public-routes";
import { createLink, linksForEntity, patchLink, revokeLink } from "./service";

/**
 * /api/sl: share links (docs/decisions/010-share-links.md). The sharer's routes (./contract.ts) need a bearer; the
 * recipient's (./public-routes.ts) say `security: []` and check the link instead.
 */
const app = createApp();
const originOf = (url: string) => new URL(url).origin;

app.openapi(r.createLink, async (c) =>
  c.text(await createLink(getDb(c.env), c.env, c.get("auth"), c.req.valid("param").id, c.req.valid("json"), originOf(c.req.url)), 200),
);

app.openapi(r.linksOfAsset, async (c) => c.json(await linksForEntity(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));

app.openapi(r.patchLink, async (c) => {
  const link = await patchLink(getDb(c.env), c.env, c.get("auth"), c.req.valid("param").id, c.req.valid("json"), originOf(c.req.url));
  return c.json(link, 200);
});

app.openapi(r.revokeLink, async (c) => {
  const link = await revokeLink(getDb(c.env), c.get("auth"), c.req.valid("param").id);
  return c.json(link, 200);
});

app.route("/", publicRoutes);

export default app;
