import { createRoute, z } from "@hono/zod-openapi";
import { streamVariant } from "../assets/http-content";
import { mediaOrigin, openPlayLink } from "../assets/play-links";
import { getDb } from "../lib/db";
import { ApiError } from "../lib/errors";
import { createApp, errorResponses, jsonContent } from "../lib/openapi";
import { uuid } from "../../shared/assets/schemas";
import { putPart } from "./complete";
import { partParams } from "../../shared/uploads/schemas";
import { verifyUrl } from "../lib/sign";

/**
 * Routes a browser reaches without a bearer, authenticated by a URL signature instead: the upload
 * server's ping, Worker-path part PUTs, and play links (<video src>; functions/assets/play-links.ts).
 * Declared `security: []`, like every route served without a bearer (functions/lib/auth.ts).
 */
const app = createApp();
const tags = ["uploads"];
const signedQuery = z.object({ exp: z.string().optional(), sig: z.string().optional() });
const badSignature = () => new ApiError("forbidden", "Ссылка недействительна или устарела");

app.openapi(
  createRoute({
    method: "get",
    path: "/ul/ping",
    security: [],
    tags,
    summary: "Upload server liveness (called directly by the client)",
    responses: { 200: jsonContent(z.object({ ok: z.literal(true), time: z.number() })) },
  }),
  (c) => c.json({ ok: true as const, time: Date.now() }, 200),
);

app.openapi(
  createRoute({
    method: "put",
    path: "/ul/{id}/part/{n}",
    security: [],
    tags,
    summary: "Worker path: the bytes of one part (exact Content-Length, signed URL)",
    request: { params: partParams, query: signedQuery },
    responses: { 200: jsonContent(z.object({ part: z.number(), size: z.number(), etag: z.string() })), ...errorResponses },
  }),
  async (c) => {
    const { id, n } = c.req.valid("param");
    const { exp, sig } = c.req.valid("query");
    if (!(await verifyUrl(c.env.JWT_SECRET, "part", `${id}:${n}`, exp, sig))) throw badSignature();
    const length = c.req.header("Content-Length");
    const res = await putPart(getDb(c.env), c.env, id, n, length === undefined ? NaN : Number(length), c.req.raw.body);
    return c.json(res, 200, { ETag: res.etag, "Access-Control-Expose-Headers": "ETag" });
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/media/{id}",
    security: [],
    tags,
    summary:
      "A play link: streams a variant with Range, no headers needed, while the session that asked for it is live and keeps the right",
    request: {
      params: z.object({ id: uuid.openapi({ param: { name: "id", in: "path" } }) }),
      query: signedQuery.extend({ s: z.string().max(80).optional() }),
    },
    responses: { 200: { description: "the bytes" }, 206: { description: "a range" }, ...errorResponses },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const db = getDb(c.env);
    const v = await openPlayLink(db, c.env, id, c.req.valid("query"));
    const res = await streamVariant(db, c.env, c.req.raw, v, "inline", c.get("requestId"));
    // A play link on MEDIA_ORIGIN is a capability read by the app on another origin (the text viewer's fetch).
    if (mediaOrigin(c.env)) res.headers.set("Access-Control-Allow-Origin", "*");
    return res;
  },
);

export default app;
