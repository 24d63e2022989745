import { createRoute, z } from "@hono/zod-openapi";
import { idParam } from "../assets/schemas";
import { getDb } from "../lib/db";
import { errorAnswers, createApp, jsonBody, jsonContent } from "../lib/openapi";
import publicRoutes from "./public-routes";
import { createLinkBody, linkIdParam, linkOut, patchLinkBody } from "./schemas";
import { createLink, linksForEntity, patchLink, revokeLink } from "./service";

/**
 * /api/sl: share links (docs/decisions/010-share-links.md). The sharer's routes need a bearer; the recipient's
 * (./public-routes.ts) are in the open-route list of functions/lib/auth.ts and check the link instead.
 */
const app = createApp();
const tags = ["share links"];
const errors = errorAnswers({ 403: "Lacking acl (or download)", 404: "Not found" });
const originOf = (url: string) => new URL(url).origin;

app.openapi(
  createRoute({
    method: "post",
    path: "/create/{id}",
    tags,
    summary: "Create a share link to an asset; answers its short id as text",
    request: { params: idParam, body: jsonBody(createLinkBody) },
    responses: { 200: { description: "the short id", content: { "text/plain": { schema: z.string() } } }, ...errors },
  }),
  async (c) =>
    c.text(await createLink(getDb(c.env), c.env, c.get("auth"), c.req.valid("param").id, c.req.valid("json"), originOf(c.req.url)), 200),
);

app.openapi(
  createRoute({
    method: "get",
    path: "/for-entity/{id}",
    tags,
    summary: "The share links of an asset, newest first",
    request: { params: idParam },
    responses: { 200: jsonContent(z.array(linkOut)), ...errors },
  }),
  async (c) => c.json(await linksForEntity(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);

app.openapi(
  createRoute({
    method: "patch",
    path: "/{id}",
    tags,
    summary: "Change a link's window, password, acl, recipients or download limit",
    request: { params: linkIdParam, body: jsonBody(patchLinkBody) },
    responses: { 200: jsonContent(linkOut), ...errors },
  }),
  async (c) => {
    const link = await patchLink(getDb(c.env), c.env, c.get("auth"), c.req.valid("param").id, c.req.valid("json"), originOf(c.req.url));
    return c.json(link, 200);
  },
);

app.openapi(
  createRoute({
    method: "delete",
    path: "/{id}",
    tags,
    summary: "Revoke a link (kept, with its counts, for the audit trail)",
    request: { params: linkIdParam },
    responses: { 200: jsonContent(linkOut), ...errors },
  }),
  async (c) => {
    const link = await revokeLink(getDb(c.env), c.get("auth"), c.req.valid("param").id);
    return c.json(link, 200);
  },
);

app.route("/", publicRoutes);

export default app;
