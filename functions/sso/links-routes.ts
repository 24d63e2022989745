import { createRoute } from "@hono/zod-openapi";
import { getDb } from "../lib/db";
import { errorAnswers, createApp, jsonContent } from "../lib/openapi";
import { idParam } from "../groups/schemas";
import { ok } from "../users/schemas";
import { listLinks, unlink } from "./links";
import { ssoLink, unlinkParams } from "./schemas";

/** /api/user/{id}/sso-links: which providers a user signs in with, and unlinking (admins only). */
const app = createApp();
const tags = ["user"];
const errors = errorAnswers({ 403: "Admins only", 404: "No such user or link" });

app.openapi(
  createRoute({
    method: "get",
    path: "/{id}/sso-links",
    tags,
    summary: "A user's single sign-on links",
    request: { params: idParam },
    responses: { 200: jsonContent(ssoLink.array()), ...errors },
  }),
  async (c) => c.json(await listLinks(getDb(c.env), c.env, c.get("auth"), c.req.valid("param").id), 200),
);

app.openapi(
  createRoute({
    method: "delete",
    path: "/{id}/sso-links/{provider}",
    tags,
    summary: "Unlink a user from a provider",
    request: { params: unlinkParams },
    responses: { 200: jsonContent(ok), ...errors },
  }),
  async (c) => {
    const p = c.req.valid("param");
    return c.json(await unlink(getDb(c.env), c.get("auth"), p.id, p.provider), 200);
  },
);

export default app;
