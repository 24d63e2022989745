import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../lib/db";
import { createApp, errorResponses, jsonBody, jsonContent } from "../lib/openapi";
import { uploadServer, workerServer } from "../lib/upload-server";
import { requireAccess } from "../lib/access";
import { requireAssets } from "./guard";
import {
  asset,
  assetGroups,
  assetInfo as assetInfoOut,
  contentSize as contentSizeOut,
  created,
  createAssetBody,
  createAssetListBody,
  idParam,
  idsBody,
  ok,
  patchAssetBody,
  variant,
  version,
  versionNumber,
  versionUploadBody,
} from "./schemas";
import { assetInfo } from "./info";
import { createAssets, deleteAssets, getAsset, patchAsset } from "./service";
import { contentSize, createVersion, dropEmptyVersions, listVariants, listVersions, memberOf, versionsByIds } from "./versions";

const app = createApp();
const tags = ["assets"];
const notFound = { description: "Not found, or not readable by the caller", content: errorResponses[400].content };
const errors = { ...errorResponses, 404: notFound };

app.openapi(
  createRoute({
    method: "post",
    path: "/create",
    tags,
    summary: "Create an asset (asset_name and asset_mime required)",
    request: { body: jsonBody(createAssetBody) },
    responses: { 200: jsonContent(created), ...errors },
  }),
  async (c) => c.json((await createAssets(getDb(c.env), c.get("auth"), [c.req.valid("json")]))[0], 200),
);

app.openapi(
  createRoute({
    method: "post",
    path: "/create-list",
    tags,
    summary: "Create many assets in one batch",
    request: { body: jsonBody(createAssetListBody) },
    responses: { 200: jsonContent(z.array(created)), ...errors },
  }),
  async (c) => c.json(await createAssets(getDb(c.env), c.get("auth"), c.req.valid("json").assets), 200),
);

app.openapi(
  createRoute({
    method: "post",
    path: "/delete-list",
    tags,
    summary: "Delete many assets",
    request: { body: jsonBody(idsBody) },
    responses: { 200: jsonContent(ok), ...errors },
  }),
  async (c) => {
    await deleteAssets(getDb(c.env), c.env, c.get("auth"), [...new Set(c.req.valid("json").ids)]);
    return c.json({ ok: true as const }, 200);
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/version/{id}",
    tags,
    summary: "Prepare an upload into the asset: returns the upload server",
    request: { params: idParam, body: jsonBody(versionUploadBody) },
    responses: { 200: jsonContent(uploadServer.extend({ asset_id: z.string(), variant_type: z.string().nullable() })), ...errors },
  }),
  async (c) => {
    const db = getDb(c.env);
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    await requireAssets(db, c.get("auth"), "update", [id]);
    if (body.to_group) await requireAccess(db, c.get("auth"), "read", [body.to_group], { types: ["group"], notFound: "Группа не найдена" });
    return c.json({ ...workerServer(c.req.url), asset_id: id, variant_type: body.variant_type ?? null }, 200);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/versions/{id}",
    tags,
    summary: "Versions of an asset, one row per variant",
    request: { params: idParam },
    responses: { 200: jsonContent(z.array(version)), ...errors },
  }),
  async (c) => c.json(await listVersions(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);

app.openapi(
  createRoute({
    method: "get",
    path: "/variants/{id}/{version}",
    tags,
    summary: "Variants of one version",
    request: { params: idParam.extend({ version: versionNumber.openapi({ param: { name: "version", in: "path" } }) }) },
    responses: { 200: jsonContent(z.array(variant)), ...errors },
  }),
  async (c) => {
    const { id, version: v } = c.req.valid("param");
    return c.json(await listVariants(getDb(c.env), c.get("auth"), id, v), 200);
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/version-by-ids",
    tags,
    summary: "Latest version and its variants for each asset",
    request: { body: jsonBody(idsBody) },
    responses: {
      200: jsonContent(z.array(z.object({ asset_id: z.string(), version: z.number().nullable(), variants: z.array(variant) }))),
      ...errors,
    },
  }),
  async (c) => c.json(await versionsByIds(getDb(c.env), c.get("auth"), [...new Set(c.req.valid("json").ids)]), 200),
);

app.openapi(
  createRoute({
    method: "post",
    path: "/create-version/{id}",
    tags,
    summary: "Create an empty version",
    request: {
      params: idParam,
      body: { required: false, content: { "application/json": { schema: z.object({ desc: z.string().max(2000).optional() }) } } },
    },
    responses: {
      200: jsonContent(z.object({ asset_id: z.string(), version: z.number(), desc: z.string(), ctime: z.number() })),
      ...errors,
    },
  }),
  async (c) => c.json(await createVersion(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json")?.desc ?? ""), 200),
);

app.openapi(
  createRoute({
    method: "post",
    path: "/drop-empty-version/{id}",
    tags,
    summary: "Remove versions without variants",
    request: { params: idParam },
    responses: { 200: jsonContent(z.object({ asset_id: z.string(), dropped: z.array(z.number()) })), ...errors },
  }),
  async (c) => c.json(await dropEmptyVersions(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);

app.openapi(
  createRoute({
    method: "get",
    path: "/member-of/{id}",
    tags,
    summary: "Groups the asset is in",
    request: { params: idParam },
    responses: { 200: jsonContent(assetGroups), ...errors },
  }),
  async (c) => c.json(await memberOf(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);

app.openapi(
  createRoute({
    method: "get",
    path: "/info/{id}",
    tags,
    summary: "Everything the asset info screen shows: the asset, its versions with their variants, groups, access, names",
    request: { params: idParam },
    responses: { 200: jsonContent(assetInfoOut), ...errors },
  }),
  async (c) => c.json(await assetInfo(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);

app.openapi(
  createRoute({
    method: "get",
    path: "/content-size/{id}",
    tags,
    summary: "Bytes of the asset's content",
    request: { params: idParam },
    responses: { 200: jsonContent(contentSizeOut), ...errors },
  }),
  async (c) => c.json(await contentSize(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);

app.openapi(
  createRoute({
    method: "get",
    path: "/{id}",
    tags,
    summary: "An asset",
    request: { params: idParam },
    responses: { 200: jsonContent(asset), ...errors },
  }),
  async (c) => c.json(await getAsset(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);

app.openapi(
  createRoute({
    method: "patch",
    path: "/{id}",
    tags,
    summary: "Rename, change MIME type or class",
    request: { params: idParam, body: jsonBody(patchAssetBody) },
    responses: { 200: jsonContent(asset), ...errors },
  }),
  async (c) => c.json(await patchAsset(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200),
);

app.openapi(
  createRoute({
    method: "delete",
    path: "/{id}",
    tags,
    summary: "Delete an asset with all its versions and bytes",
    request: { params: idParam },
    responses: { 200: jsonContent(ok), ...errors },
  }),
  async (c) => {
    await deleteAssets(getDb(c.env), c.env, c.get("auth"), [c.req.valid("param").id]);
    return c.json({ ok: true as const }, 200);
  },
);

export default app;
