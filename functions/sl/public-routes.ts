import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { getDb } from "../lib/db";
import type { AppEnv } from "../lib/env";
import { createApp, errorResponses, jsonBody, jsonContent } from "../lib/openapi";
import { cacheControl, openLink, publicInfo, type OpenLink } from "./public";
import { countView, serveLinked, servePreview, unlockLink } from "./recipient";
import { linkIdParam, publicInfo as publicInfoSchema, unlockBody } from "../../shared/sl/schemas";

/**
 * The recipient's routes: no bearer (functions/lib/auth.ts openRoutes), the link id and, for a link with a
 * password, the unlock cookie decide. Unknown or not yet started: 404; revoked, expired, used up: 410.
 */
const app = createApp();
const tags = ["share links (public)"];
const err = (description: string) => ({ description, content: errorResponses[400].content });
const errors = {
  400: errorResponses[400],
  403: err("Locked by a password, or not allowed by the link"),
  404: err("Unknown or not yet valid"),
  410: err("Revoked, expired or used up"),
};
const bytes = {
  200: { description: "the bytes" },
  206: { description: "a byte range" },
  304: { description: "not modified" },
  416: { description: "range outside the file" },
};
const now = () => Math.floor(Date.now() / 1000);

function answerInfo(c: Context<AppEnv>, o: OpenLink, cookie: string | null) {
  if (o.unlocked) c.executionCtx.waitUntil(countView(getDb(c.env), o.link.linkId, c.env));
  const headers: Record<string, string> = {
    "Cache-Control": cookie ? "private, no-store" : cacheControl(o, "page", now()),
    "Referrer-Policy": "same-origin",
  };
  if (cookie) headers["Set-Cookie"] = cookie;
  return c.json(publicInfo(o), 200, headers);
}

app.openapi(
  createRoute({
    method: "get",
    path: "/sl/info/{id}",
    security: [],
    tags,
    summary: "What the public page shows (open)",
    request: { params: linkIdParam },
    responses: { 200: jsonContent(publicInfoSchema), ...errors },
  }),
  async (c) => answerInfo(c, await openLink(getDb(c.env), c.env, c.req.valid("param").id, c.req.header("Cookie") ?? null, now()), null),
);

app.openapi(
  createRoute({
    method: "post",
    path: "/sl/info/{id}",
    security: [],
    tags,
    summary: "Unlock a password-protected link: sets a signed, short-lived, httpOnly cookie bound to it (open)",
    request: { params: linkIdParam, body: jsonBody(unlockBody) },
    responses: {
      200: jsonContent(publicInfoSchema),
      ...errors,
      429: err("Too many wrong passwords for this link or address; see Retry-After"),
    },
  }),
  async (c) => {
    const ip = c.req.header("CF-Connecting-IP") ?? "local";
    const secure = new URL(c.req.url).protocol === "https:";
    const { open, cookie } = await unlockLink(
      getDb(c.env),
      c.env,
      c.req.valid("param").id,
      c.req.valid("json").password,
      ip,
      secure,
      now(),
    );
    return answerInfo(c, open, cookie);
  },
);

const which = z.object({ which: z.enum(["original", "proxy"]).openapi({ param: { name: "which", in: "path" } }) });

app.openapi(
  createRoute({
    method: "get",
    path: "/sl/{id}/download/{which}",
    security: [],
    tags,
    summary: "Download the original or the proxy (counted; open)",
    request: { params: linkIdParam.extend(which.shape) },
    responses: { ...bytes, ...errors },
  }),
  async (c) => {
    const { id, which: w } = c.req.valid("param");
    return await serveLinked(getDb(c.env), c.env, c.req.raw, id, w, c.get("requestId"), now());
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/sl/{id}/play",
    security: [],
    tags,
    summary: "The player's bytes (proxy, else original), inline with Range (open)",
    request: { params: linkIdParam },
    responses: { ...bytes, ...errors },
  }),
  async (c) => await serveLinked(getDb(c.env), c.env, c.req.raw, c.req.valid("param").id, "play", c.get("requestId"), now()),
);

app.openapi(
  createRoute({
    method: "get",
    path: "/sl/{id}/preview",
    security: [],
    tags,
    summary: "The preview image (open)",
    request: { params: linkIdParam },
    responses: { 200: { description: "the image" }, 304: { description: "not modified" }, ...errors },
  }),
  async (c) => await servePreview(getDb(c.env), c.env, c.req.raw, c.req.valid("param").id, now()),
);

export default app;
