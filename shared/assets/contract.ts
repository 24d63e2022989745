import { z } from "@hono/zod-openapi";
import { defineRoute, errorAnswers, jsonBody, routeDefiner } from "../lib/route-contract";
import { uploadServer } from "../lib/upload-server";
import * as s from "./schemas";

/**
 * /api/asset, served by the sub-apps ./index.ts composes and called by the browser through call()
 * (docs/decisions/070-route-contracts.md). One section per sub-app, each with its own tag and error answers, in the
 * order they are mounted: the static paths (content/…, class/…, create, …) before /asset/{id}.
 */

// Content and previews (./preview-routes.ts, ./content-routes.ts): bytes streamed from storage.
const contentTags = ["asset content"];
const contentErrors = errorAnswers({ 404: "Not found" });
const contentRoute = routeDefiner(contentTags, contentErrors);
const variantParam = z
  .string()
  .min(1)
  .max(64)
  .openapi({ param: { name: "variant", in: "path" } });

export const previewImage = defineRoute({
  method: "get",
  path: "/asset/content/preview/{id}/{version}/{variant}",
  tags: contentTags,
  summary: "The preview image of a variant",
  request: {
    params: s.idParam.extend({ version: s.versionNumber.openapi({ param: { name: "version", in: "path" } }), variant: variantParam }),
  },
  responses: { 200: { description: "the image" }, 304: { description: "not modified" }, ...contentErrors },
});
export const previewsOfAssets = contentRoute(
  "post",
  "/asset/content/preview-by-list",
  "Preview links for the latest versions of assets",
  { body: jsonBody(s.idsBody) },
  s.previewLinks,
);
export const previewsOfVariants = contentRoute(
  "post",
  "/asset/content/preview-by-varlist",
  "Preview links for variants",
  { body: jsonBody(s.idsBody) },
  s.previewLinks,
);
const bytes = {
  200: { description: "the bytes" },
  206: { description: "a byte range" },
  304: { description: "not modified" },
  416: { description: "range outside the file" },
};
export const download = defineRoute({
  method: "get",
  path: "/asset/content/download/{id}/{version}/{variant}",
  tags: contentTags,
  summary: "Download a variant",
  request: {
    params: s.idParam.extend({
      version: z.union([z.literal("latest"), s.versionNumber]).openapi({ param: { name: "version", in: "path" } }),
      variant: variantParam.openapi({ description: "variant id or type" }),
    }),
  },
  responses: { ...bytes, ...contentErrors },
});
export const downloadVariant = defineRoute({
  method: "get",
  path: "/asset/content/download-variant/{id}",
  tags: contentTags,
  summary: "Download a variant by its id",
  request: { params: s.idParam },
  responses: { ...bytes, ...contentErrors },
});
export const play = contentRoute(
  "post",
  "/asset/content/play/{id}",
  "A signed link to play the asset, bound to the caller's session, valid 10 minutes (a proxy for a caller without download)",
  { params: s.idParam },
  s.playLink,
);
// Played by POST (the viewer) and GET: one route twice.
const playVariantRoute = <M extends "post" | "get">(method: M) =>
  contentRoute(
    method,
    "/asset/content/play-variant/{id}",
    "A signed link to play one variant, bound to the caller's session, valid 10 minutes (an original needs download)",
    { params: s.idParam },
    s.playLink,
  );
export const playVariant = playVariantRoute("post");
export const playVariantByGet = playVariantRoute("get");

// Asset classes (./classes.ts): admins change them; everyone may read them.
const classRoute = routeDefiner(["asset classes"], errorAnswers({ 403: "Admins only", 404: "Not found", 409: "Name taken" }));

export const listClasses = classRoute("get", "/asset/class", "All asset classes", {}, z.array(s.assetClass));
export const createClass = classRoute("post", "/asset/class", "Create an asset class", { body: jsonBody(s.assetClassBody) }, s.assetClass);
export const changeClass = classRoute(
  "patch",
  "/asset/class/{id}",
  "Change an asset class",
  { params: s.idParam, body: jsonBody(s.assetClassBody.partial()) },
  s.assetClass,
);
export const deleteClass = classRoute(
  "delete",
  "/asset/class/{id}",
  "Delete an asset class (its assets lose the class)",
  { params: s.idParam },
  s.ok,
);
export const classesByIds = classRoute(
  "post",
  "/asset/class-by-ids",
  "Asset classes by id",
  { body: jsonBody(s.idsBody) },
  z.array(s.assetClass),
);

// The smaller calls (./extra-routes.ts): tech fields, previews, copy, acl-assets.
const extraRoute = routeDefiner(["assets"], contentErrors);
const techProps = z.record(z.string(), z.unknown());

export const aclAssets = extraRoute(
  "get",
  "/asset/acl-assets",
  "Assets with access rules of their own",
  {},
  z.array(z.object({ asset_id: z.string(), name: z.string(), mimetype: z.string() })),
);
export const techFieldsOf = extraRoute(
  "get",
  "/asset/tech-fields/{id}/{variantId}",
  "Technical fields of a variant of the asset",
  { params: s.idParam.extend({ variantId: s.uuid.openapi({ param: { name: "variantId", in: "path" } }) }) },
  s.techFields,
);
export const variantTechFields = extraRoute(
  "get",
  "/asset/variant-tech-fields/{id}",
  "Technical fields of a variant",
  { params: s.idParam },
  s.techFields,
);
export const variantTechProps = extraRoute(
  "get",
  "/asset/variant-tech-props/{id}",
  "Technical properties of a variant",
  { params: s.idParam },
  techProps,
);
export const patchVariantTechProps = extraRoute(
  "patch",
  "/asset/variant-tech-props/{id}",
  "Merge technical properties into a variant",
  { params: s.idParam, body: jsonBody(techProps) },
  techProps,
);
export const proxyDoc = extraRoute(
  "get",
  "/asset/asset-proxy-doc/{id}/{v}",
  "The document proxy of a version",
  { params: s.idParam.extend({ v: s.versionNumber.openapi({ param: { name: "v", in: "path" } }) }) },
  s.variant,
);
export const uploadPreview = extraRoute(
  "post",
  "/asset/upload-preview/{id}",
  "Store a preview image for a variant (raw JPEG, PNG, WebP, GIF or AVIF body, at most 10 MB; never SVG)",
  { params: s.idParam },
  z.object({ variant_id: z.string(), preview_storage_id: z.string(), size: z.number() }),
);
export const previewSize = extraRoute(
  "get",
  "/asset/preview-size",
  "Preview config: width, height, quality",
  {},
  z.object({ width: z.number(), height: z.number(), quality: z.number() }),
);
export const copyAsset = extraRoute(
  "post",
  "/asset/copy/{a}/{b}",
  "Copy asset a (its latest version) into group b as a new asset",
  {
    params: z.object({ a: s.uuid.openapi({ param: { name: "a", in: "path" } }), b: s.uuid.openapi({ param: { name: "b", in: "path" } }) }),
  },
  s.created,
);

// Assets, versions, variants (./routes.ts), /asset/{id} last.
const route = routeDefiner(["assets"], errorAnswers({ 404: "Not found, or not readable by the caller" }));

export const createAsset = route(
  "post",
  "/asset/create",
  "Create an asset (asset_name and asset_mime required)",
  { body: jsonBody(s.createAssetBody) },
  s.created,
);
export const createAssets = route(
  "post",
  "/asset/create-list",
  "Create many assets in one batch",
  { body: jsonBody(s.createAssetListBody) },
  z.array(s.created),
);
export const deleteAssets = route("post", "/asset/delete-list", "Delete many assets", { body: jsonBody(s.idsBody) }, s.ok);
export const prepareUpload = route(
  "post",
  "/asset/version/{id}",
  "Prepare an upload into the asset: returns the upload server",
  { params: s.idParam, body: jsonBody(s.versionUploadBody) },
  uploadServer.extend({ asset_id: z.string(), variant_type: z.string().nullable() }),
);
export const versions = route(
  "get",
  "/asset/versions/{id}",
  "Versions of an asset, one row per variant",
  { params: s.idParam },
  z.array(s.version),
);
export const variants = route(
  "get",
  "/asset/variants/{id}/{version}",
  "Variants of one version",
  { params: s.idParam.extend({ version: s.versionNumber.openapi({ param: { name: "version", in: "path" } }) }) },
  z.array(s.variant),
);
export const versionsByIds = route(
  "post",
  "/asset/version-by-ids",
  "Latest version and its variants for each asset",
  { body: jsonBody(s.idsBody) },
  z.array(z.object({ asset_id: z.string(), version: z.number().nullable(), variants: z.array(s.variant) })),
);
export const createVersion = route(
  "post",
  "/asset/create-version/{id}",
  "Create an empty version",
  {
    params: s.idParam,
    body: { required: false, content: { "application/json": { schema: z.object({ desc: z.string().max(2000).optional() }) } } },
  },
  z.object({ asset_id: z.string(), version: z.number(), desc: z.string(), ctime: z.number() }),
);
export const dropEmptyVersions = route(
  "post",
  "/asset/drop-empty-version/{id}",
  "Remove versions without variants",
  { params: s.idParam },
  z.object({ asset_id: z.string(), dropped: z.array(z.number()) }),
);
export const memberOf = route("get", "/asset/member-of/{id}", "Groups the asset is in", { params: s.idParam }, s.assetGroups);
export const assetInfo = route(
  "get",
  "/asset/info/{id}",
  "Everything the asset info screen shows: the asset, its versions with their variants, groups, access, names",
  { params: s.idParam },
  s.assetInfo,
);
export const contentSize = route("get", "/asset/content-size/{id}", "Bytes of the asset's content", { params: s.idParam }, s.contentSize);
export const getAsset = route("get", "/asset/{id}", "An asset", { params: s.idParam }, s.asset);
export const patchAsset = route(
  "patch",
  "/asset/{id}",
  "Rename, change MIME type or class",
  { params: s.idParam, body: jsonBody(s.patchAssetBody) },
  s.asset,
);
export const deleteAsset = route("delete", "/asset/{id}", "Delete an asset with all its versions and bytes", { params: s.idParam }, s.ok);
