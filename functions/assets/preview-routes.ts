import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../lib/db";
import { createApp, errorResponses, jsonBody, jsonContent } from "../lib/openapi";
import { previewsOf } from "./extra";
import { requireAssets } from "./guard";
import { previewResponse } from "./http-content";
import { idParam, idsBody, previewLinks, versionNumber } from "./schemas";
import { findVariant } from "./versions";

/** Preview images under /api/asset/content (stored by upload-preview or the preview job). */
const app = createApp();
const tags = ["asset content"];
const errors = { ...errorResponses, 404: { description: "Not found", content: errorResponses[400].content } };

app.openapi(
  createRoute({
    method: "get",
    path: "/preview/{id}/{version}/{variant}",
    tags,
    summary: "The preview image of a variant",
    request: {
      params: idParam.extend({
        version: versionNumber.openapi({ param: { name: "version", in: "path" } }),
        variant: z
          .string()
          .min(1)
          .max(64)
          .openapi({ param: { name: "variant", in: "path" } }),
      }),
    },
    responses: { 200: { description: "the image" }, 304: { description: "not modified" }, ...errors },
  }),
  async (c) => {
    const { id, version, variant } = c.req.valid("param");
    const db = getDb(c.env);
    await requireAssets(db, c.get("auth"), "read", [id]);
    return await previewResponse(db, c.env, c.req.raw, await findVariant(db, id, version, variant), "Превью ещё нет");
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/preview-by-list",
    tags,
    summary: "Preview links for the latest versions of assets",
    request: { body: jsonBody(idsBody) },
    responses: { 200: jsonContent(previewLinks), ...errors },
  }),
  async (c) => c.json(await previewsOf(getDb(c.env), c.get("auth"), c.req.valid("json").ids, "asset"), 200),
);

app.openapi(
  createRoute({
    method: "post",
    path: "/preview-by-varlist",
    tags,
    summary: "Preview links for variants",
    request: { body: jsonBody(idsBody) },
    responses: { 200: jsonContent(previewLinks), ...errors },
  }),
  async (c) => c.json(await previewsOf(getDb(c.env), c.get("auth"), c.req.valid("json").ids, "variant"), 200),
);

export default app;
