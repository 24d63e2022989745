import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { Variant } from "../../db/schema";
import { getDb } from "../lib/db";
import type { AppEnv } from "../lib/env";
import { createApp, errorResponses, jsonContent } from "../lib/openapi";
import { signUrl } from "../uploads/sign";
import { requireAssets } from "./guard";
import previewRoutes from "./preview-routes";
import { streamVariant } from "./http-content";
import { idParam, uuid, versionNumber } from "./schemas";
import { findVariant, playableVariant, variantById } from "./versions";

/** /api/asset/content: downloads and playback streamed from storage (Range, ETag, Content-Disposition). */
const app = createApp();
app.route("/", previewRoutes);
const tags = ["asset content"];
const bytes = { 200: { description: "the bytes" }, 206: { description: "a byte range" }, 304: { description: "not modified" }, 416: { description: "range outside the file" } };
const errors = { ...errorResponses, 404: { description: "Not found", content: errorResponses[400].content } };
const playTtlSeconds = 4 * 3600;

const versionVariantParams = idParam.extend({
  version: z.union([z.literal("latest"), versionNumber]).openapi({ param: { name: "version", in: "path" } }),
  variant: z.string().min(1).max(64).openapi({ param: { name: "variant", in: "path" }, description: "variant id or type" }),
});

const send = (c: Context<AppEnv>, v: Variant) => streamVariant(getDb(c.env), c.env, c.req.raw, v, "attachment", c.get("requestId"));

app.openapi(
  createRoute({ method: "get", path: "/download/{id}/{version}/{variant}", tags, summary: "Download a variant", request: { params: versionVariantParams }, responses: { ...bytes, ...errors } }),
  async (c) => {
    const { id, version, variant } = c.req.valid("param");
    const db = getDb(c.env);
    await requireAssets(db, c.get("auth"), "download", [id]);
    return (await send(c, await findVariant(db, id, version, variant))) as never;
  },
);

app.openapi(
  createRoute({ method: "get", path: "/download-variant/{id}", tags, summary: "Download a variant by its id", request: { params: idParam }, responses: { ...bytes, ...errors } }),
  async (c) => (await send(c, await variantById(getDb(c.env), c.get("auth"), c.req.valid("param").id, "download"))) as never,
);

const playLink = z.object({ link: z.string(), expire: z.number().int(), range: z.boolean() }).openapi("PlayLink");

async function answerPlay(c: Context<AppEnv>, v: Variant) {
  const expire = Math.floor(Date.now() / 1000) + playTtlSeconds;
  const link = `${new URL(c.req.url).origin}/api/media/${v.variantId}?${await signUrl(c.env.JWT_SECRET, "play", v.variantId, expire)}`;
  return c.json({ link, expire, range: true }, 200);
}

app.openapi(
  createRoute({ method: "post", path: "/play/{id}", tags, summary: "A short-lived signed link to play the asset", request: { params: idParam }, responses: { 200: jsonContent(playLink), ...errors } }),
  async (c) => {
    const db = getDb(c.env);
    const { id } = c.req.valid("param");
    await requireAssets(db, c.get("auth"), "read", [id]);
    return answerPlay(c, await playableVariant(db, id));
  },
);

for (const method of ["post", "get"] as const) {
  app.openapi(
    createRoute({ method, path: "/play-variant/{id}", tags, summary: "A short-lived signed link to play one variant", request: { params: idParam }, responses: { 200: jsonContent(playLink), ...errors } }),
    async (c) => answerPlay(c, await variantById(getDb(c.env), c.get("auth"), c.req.valid("param").id, "read")),
  );
}

export default app;
