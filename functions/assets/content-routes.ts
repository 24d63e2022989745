import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { Variant } from "../../db/schema";
import { getDb } from "../lib/db";
import type { AppEnv } from "../lib/env";
import { createApp, errorResponses, jsonContent } from "../lib/openapi";
import { requireAssets } from "./guard";
import { playLink } from "./play-links";
import previewRoutes from "./preview-routes";
import { streamVariant } from "./http-content";
import { idParam, playLink as playLinkOut, versionNumber } from "./schemas";
import { findVariant, playableVariant, rightFor, variantBytesById } from "./versions";

/** /api/asset/content: downloads and playback streamed from storage (Range, ETag, Content-Disposition). */
const app = createApp();
app.route("/", previewRoutes);
const tags = ["asset content"];
const bytes = {
  200: { description: "the bytes" },
  206: { description: "a byte range" },
  304: { description: "not modified" },
  416: { description: "range outside the file" },
};
const errors = { ...errorResponses, 404: { description: "Not found", content: errorResponses[400].content } };

const versionVariantParams = idParam.extend({
  version: z.union([z.literal("latest"), versionNumber]).openapi({ param: { name: "version", in: "path" } }),
  variant: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "variant", in: "path" }, description: "variant id or type" }),
});

const send = (c: Context<AppEnv>, v: Variant) => streamVariant(getDb(c.env), c.env, c.req.raw, v, "attachment", c.get("requestId"));

app.openapi(
  createRoute({
    method: "get",
    path: "/download/{id}/{version}/{variant}",
    tags,
    summary: "Download a variant",
    request: { params: versionVariantParams },
    responses: { ...bytes, ...errors },
  }),
  async (c) => {
    const { id, version, variant } = c.req.valid("param");
    const db = getDb(c.env);
    await requireAssets(db, c.get("auth"), "read", [id]);
    const v = await findVariant(db, id, version, variant);
    if (rightFor(v) !== "read") await requireAssets(db, c.get("auth"), rightFor(v), [id]);
    return await send(c, v);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/download-variant/{id}",
    tags,
    summary: "Download a variant by its id",
    request: { params: idParam },
    responses: { ...bytes, ...errors },
  }),
  async (c) => await send(c, await variantBytesById(getDb(c.env), c.get("auth"), c.req.valid("param").id)),
);

const answerPlay = async (c: Context<AppEnv>, v: Variant) => c.json(await playLink(c.env, c.req.url, c.get("auth"), v.variantId), 200);

app.openapi(
  createRoute({
    method: "post",
    path: "/play/{id}",
    tags,
    summary: "A signed link to play the asset, bound to the caller's session, valid 10 minutes (a proxy for a caller without download)",
    request: { params: idParam },
    responses: { 200: jsonContent(playLinkOut), ...errors },
  }),
  async (c) => answerPlay(c, await playableVariant(getDb(c.env), c.get("auth"), c.req.valid("param").id)),
);

for (const method of ["post", "get"] as const) {
  app.openapi(
    createRoute({
      method,
      path: "/play-variant/{id}",
      tags,
      summary: "A signed link to play one variant, bound to the caller's session, valid 10 minutes (an original needs download)",
      request: { params: idParam },
      responses: { 200: jsonContent(playLinkOut), ...errors },
    }),
    async (c) => answerPlay(c, await variantBytesById(getDb(c.env), c.get("auth"), c.req.valid("param").id)),
  );
}

export default app;
