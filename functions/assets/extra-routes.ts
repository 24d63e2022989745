import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../lib/db";
import { ApiError } from "../lib/errors";
import { createApp, errorResponses, jsonBody, jsonContent } from "../lib/openapi";
import { aclAssets, copyAsset, patchTechProps, previewConfig, proxyDoc, techFields, uploadPreview } from "./extra";
import { created, idParam, techFields as techFieldsOut, uuid, variant, versionNumber } from "./schemas";
import { variantById } from "./versions";

/** The smaller /api/asset calls: tech fields, previews, copy, acl-assets (static paths, before /{id}). */
const app = createApp();
const tags = ["assets"];
const errors = { ...errorResponses, 404: { description: "Not found", content: errorResponses[400].content } };
const props = z.record(z.string(), z.unknown());

app.openapi(
  createRoute({
    method: "get",
    path: "/acl-assets",
    tags,
    summary: "Assets with access rules of their own",
    responses: { 200: jsonContent(z.array(z.object({ asset_id: z.string(), name: z.string(), mimetype: z.string() }))), ...errors },
  }),
  async (c) => c.json(await aclAssets(getDb(c.env), c.get("auth")), 200),
);

app.openapi(
  createRoute({
    method: "get",
    path: "/tech-fields/{id}/{variantId}",
    tags,
    summary: "Technical fields of a variant of the asset",
    request: { params: idParam.extend({ variantId: uuid.openapi({ param: { name: "variantId", in: "path" } }) }) },
    responses: { 200: jsonContent(techFieldsOut), ...errors },
  }),
  async (c) => {
    const { id, variantId } = c.req.valid("param");
    const v = await variantById(getDb(c.env), c.get("auth"), variantId);
    if (v.assetId !== id) throw new ApiError("not_found", "Вариант не найден");
    return c.json(techFields(v.techProps), 200);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/variant-tech-fields/{id}",
    tags,
    summary: "Technical fields of a variant",
    request: { params: idParam },
    responses: { 200: jsonContent(techFieldsOut), ...errors },
  }),
  async (c) => c.json(techFields((await variantById(getDb(c.env), c.get("auth"), c.req.valid("param").id)).techProps), 200),
);

app.openapi(
  createRoute({
    method: "get",
    path: "/variant-tech-props/{id}",
    tags,
    summary: "Technical properties of a variant",
    request: { params: idParam },
    responses: { 200: jsonContent(props), ...errors },
  }),
  async (c) => c.json((await variantById(getDb(c.env), c.get("auth"), c.req.valid("param").id)).techProps, 200),
);

app.openapi(
  createRoute({
    method: "patch",
    path: "/variant-tech-props/{id}",
    tags,
    summary: "Merge technical properties into a variant",
    request: { params: idParam, body: jsonBody(props) },
    responses: { 200: jsonContent(props), ...errors },
  }),
  async (c) => c.json(await patchTechProps(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200),
);

app.openapi(
  createRoute({
    method: "get",
    path: "/asset-proxy-doc/{id}/{v}",
    tags,
    summary: "The document proxy of a version",
    request: { params: idParam.extend({ v: versionNumber.openapi({ param: { name: "v", in: "path" } }) }) },
    responses: { 200: jsonContent(variant), ...errors },
  }),
  async (c) => {
    const { id, v } = c.req.valid("param");
    return c.json(await proxyDoc(getDb(c.env), c.get("auth"), id, v), 200);
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/upload-preview/{id}",
    tags,
    summary: "Store a preview image for a variant (raw JPEG, PNG, WebP, GIF or AVIF body, at most 10 MB; never SVG)",
    request: { params: idParam },
    responses: { 200: jsonContent(z.object({ variant_id: z.string(), preview_storage_id: z.string(), size: z.number() })), ...errors },
  }),
  async (c) => {
    const length = Number(c.req.header("Content-Length") ?? NaN);
    const res = await uploadPreview(
      getDb(c.env),
      c.env,
      c.get("auth"),
      c.req.valid("param").id,
      c.req.header("Content-Type") ?? "",
      length,
      c.req.raw.body,
    );
    return c.json(res, 200);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/preview-size",
    tags,
    summary: "Preview config: width, height, quality",
    responses: { 200: jsonContent(z.object({ width: z.number(), height: z.number(), quality: z.number() })), ...errors },
  }),
  (c) => c.json(previewConfig, 200),
);

app.openapi(
  createRoute({
    method: "post",
    path: "/copy/{a}/{b}",
    tags,
    summary: "Copy asset a (its latest version) into group b as a new asset",
    request: {
      params: z.object({ a: uuid.openapi({ param: { name: "a", in: "path" } }), b: uuid.openapi({ param: { name: "b", in: "path" } }) }),
    },
    responses: { 200: jsonContent(created), ...errors },
  }),
  async (c) => {
    const { a, b } = c.req.valid("param");
    return c.json(await copyAsset(getDb(c.env), c.env, c.get("auth"), a, b), 200);
  },
);

export default app;
