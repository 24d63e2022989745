import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../lib/db";
import { ApiError } from "../lib/errors";
import { createApp, errorResponses, jsonBody, jsonContent } from "../lib/openapi";
import { previewsOf } from "./extra";
import { requireAssets } from "./guard";
import { driverFor, getStorage } from "../lib/storage";
import { idParam, idsBody, versionNumber } from "./schemas";
import { findVariant } from "./versions";

/** Preview images under /api/asset/content (stored by upload-preview or the preview job). */
const app = createApp();
const tags = ["asset content"];
const errors = { ...errorResponses, 404: { description: "Not found", content: errorResponses[400].content } };
const previewList = z.array(z.object({ id: z.string(), variant_id: z.string().nullable(), preview: z.string().nullable() }));

app.openapi(
  createRoute({
    method: "get", path: "/preview/{id}/{version}/{variant}", tags, summary: "The preview image of a variant",
    request: { params: idParam.extend({ version: versionNumber.openapi({ param: { name: "version", in: "path" } }), variant: z.string().min(1).max(64).openapi({ param: { name: "variant", in: "path" } }) }) },
    responses: { 200: { description: "the image" }, 304: { description: "not modified" }, ...errors },
  }),
  async (c) => {
    const { id, version, variant } = c.req.valid("param");
    const db = getDb(c.env);
    await requireAssets(db, c.get("auth"), "read", [id]);
    const v = await findVariant(db, id, version, variant);
    if (!v.previewKey || !v.previewStorageId) throw new ApiError("not_found", "Превью ещё нет");
    const obj = await (await driverFor(c.env, await getStorage(db, v.previewStorageId))).get(v.previewKey);
    if (!obj) throw new ApiError("not_found", "Превью ещё нет");
    const headers = { ETag: obj.etag, "Content-Type": obj.mime ?? "image/jpeg", "Cache-Control": "private, max-age=0, must-revalidate", "X-Content-Type-Options": "nosniff" };
    if (c.req.header("If-None-Match") === obj.etag) {
      await obj.body.cancel();
      return new Response(null, { status: 304, headers }) as never;
    }
    return new Response(obj.body, { status: 200, headers: { ...headers, "Content-Length": String(obj.size) } }) as never;
  },
);

app.openapi(
  createRoute({ method: "post", path: "/preview-by-list", tags, summary: "Preview links for the latest versions of assets", request: { body: jsonBody(idsBody) }, responses: { 200: jsonContent(previewList), ...errors } }),
  async (c) => c.json(await previewsOf(getDb(c.env), c.get("auth"), c.req.valid("json").ids, "asset"), 200),
);

app.openapi(
  createRoute({ method: "post", path: "/preview-by-varlist", tags, summary: "Preview links for variants", request: { body: jsonBody(idsBody) }, responses: { 200: jsonContent(previewList), ...errors } }),
  async (c) => c.json(await previewsOf(getDb(c.env), c.get("auth"), c.req.valid("json").ids, "variant"), 200),
);

export default app;
