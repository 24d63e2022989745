import { getDb } from "../lib/db";
import { createApp } from "../lib/openapi";
import * as r from "../../shared/assets/contract";
import { previewsOf } from "./extra";
import { requireAssets } from "./guard";
import { previewResponse } from "./http-content";
import { findVariant } from "./versions";

/** Preview images under /api/asset/content (stored by upload-preview or the preview job); routes in ./contract.ts. */
const app = createApp();

app.openapi(r.previewImage, async (c) => {
  const { id, version, variant } = c.req.valid("param");
  const db = getDb(c.env);
  await requireAssets(db, c.get("auth"), "read", [id]);
  return await previewResponse(db, c.env, c.req.raw, await findVariant(db, id, version, variant), "Превью ещё нет");
});

app.openapi(r.previewsOfAssets, async (c) => c.json(await previewsOf(getDb(c.env), c.get("auth"), c.req.valid("json").ids, "asset"), 200));

app.openapi(r.previewsOfVariants, async (c) =>
  c.json(await previewsOf(getDb(c.env), c.get("auth"), c.req.valid("json").ids, "variant"), 200),
);

export default app;
