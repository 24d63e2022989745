import { z } from "@hono/zod-openapi";
import { idParam } from "../assets/schemas";
import { defineRoute, errorAnswers, jsonBody, routeDefiner } from "../lib/route-contract";
import { createLinkBody, linkIdParam, linkOut, patchLinkBody } from "./schemas";

/**
 * /api/sl, the sharer's routes: served by ./routes.ts and called by the asset screen through call()
 * (docs/decisions/070-route-contracts.md, 010-share-links.md). The recipient's open routes stay in ./public-routes.ts.
 */
const tags = ["share links"];
const errors = errorAnswers({ 403: "Lacking acl (or download)", 404: "Not found" });
const route = routeDefiner(tags, errors);

export const createLink = defineRoute({
  method: "post",
  path: "/sl/create/{id}",
  tags,
  summary: "Create a share link to an asset; answers its short id as text",
  request: { params: idParam, body: jsonBody(createLinkBody) },
  responses: { 200: { description: "the short id", content: { "text/plain": { schema: z.string() } } }, ...errors },
});
export const linksOfAsset = route(
  "get",
  "/sl/for-entity/{id}",
  "The share links of an asset, newest first",
  { params: idParam },
  z.array(linkOut),
);
export const patchLink = route(
  "patch",
  "/sl/{id}",
  "Change a link's window, password, acl, recipients or download limit",
  { params: linkIdParam, body: jsonBody(patchLinkBody) },
  linkOut,
);
export const revokeLink = route(
  "delete",
  "/sl/{id}",
  "Revoke a link (kept, with its counts, for the audit trail)",
  { params: linkIdParam },
  linkOut,
);
