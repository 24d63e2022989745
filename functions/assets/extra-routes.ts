import { getDb } from "../lib/db";
import { ApiError } from "../lib/errors";
import { createApp } from "../lib/openapi";
import * as r from "../../shared/assets/contract";
import { aclAssets, copyAsset, patchTechProps, previewConfig, proxyDoc, techFields, uploadPreview } from "./extra";
import { variantById } from "./versions";

/** The smaller /api/asset calls: tech fields, previews, copy, acl-assets (static paths, before /{id}; ./contract.ts). */
const app = createApp();

app.openapi(r.aclAssets, async (c) => c.json(await aclAssets(getDb(c.env), c.get("auth")), 200));

app.openapi(r.techFieldsOf, async (c) => {
  const { id, variantId } = c.req.valid("param");
  const v = await variantById(getDb(c.env), c.get("auth"), variantId);
  if (v.assetId !== id) throw new ApiError("not_found", "Вариант не найден");
  return c.json(techFields(v.techProps), 200);
});

app.openapi(r.variantTechFields, async (c) =>
  c.json(techFields((await variantById(getDb(c.env), c.get("auth"), c.req.valid("param").id)).techProps), 200),
);

app.openapi(r.variantTechProps, async (c) =>
  c.json((await variantById(getDb(c.env), c.get("auth"), c.req.valid("param").id)).techProps, 200),
);

app.openapi(r.patchVariantTechProps, async (c) =>
  c.json(await patchTechProps(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200),
);

app.openapi(r.proxyDoc, async (c) => {
  const { id, v } = c.req.valid("param");
  return c.json(await proxyDoc(getDb(c.env), c.get("auth"), id, v), 200);
});

app.openapi(r.uploadPreview, async (c) => {
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
});

app.openapi(r.previewSize, (c) => c.json(previewConfig, 200));

app.openapi(r.copyAsset, async (c) => {
  const { a, b } = c.req.valid("param");
  return c.json(await copyAsset(getDb(c.env), c.env, c.get("auth"), a, b), 200);
});

export default app;
