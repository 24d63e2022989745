import { getDb } from "../lib/db";
import { createApp } from "../lib/openapi";
import { workerServer } from "../../shared/lib/upload-server";
import { requireAccess } from "../lib/access";
import * as r from "../../shared/assets/contract";
import { requireAssets } from "./guard";
import { assetInfo } from "./info";
import { createAssets, deleteAssets, getAsset, patchAsset } from "./service";
import { contentSize, createVersion, dropEmptyVersions, listVariants, listVersions, memberOf, versionsByIds } from "./versions";

/** /api/asset: assets, versions, variants (./contract.ts); /asset/{id} comes last (./index.ts). */
const app = createApp();

app.openapi(r.createAsset, async (c) => c.json((await createAssets(getDb(c.env), c.get("auth"), [c.req.valid("json")]))[0], 200));

app.openapi(r.createAssets, async (c) => c.json(await createAssets(getDb(c.env), c.get("auth"), c.req.valid("json").assets), 200));

app.openapi(r.deleteAssets, async (c) => {
  await deleteAssets(getDb(c.env), c.env, c.get("auth"), [...new Set(c.req.valid("json").ids)]);
  return c.json({ ok: true as const }, 200);
});

app.openapi(r.prepareUpload, async (c) => {
  const db = getDb(c.env);
  const { id } = c.req.valid("param");
  const body = c.req.valid("json");
  await requireAssets(db, c.get("auth"), "update", [id]);
  if (body.to_group) await requireAccess(db, c.get("auth"), "read", [body.to_group], { types: ["group"], notFound: "Группа не найдена" });
  return c.json({ ...workerServer(c.req.url), asset_id: id, variant_type: body.variant_type ?? null }, 200);
});

app.openapi(r.versions, async (c) => c.json(await listVersions(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));

app.openapi(r.variants, async (c) => {
  const { id, version: v } = c.req.valid("param");
  return c.json(await listVariants(getDb(c.env), c.get("auth"), id, v), 200);
});

app.openapi(r.versionsByIds, async (c) =>
  c.json(await versionsByIds(getDb(c.env), c.get("auth"), [...new Set(c.req.valid("json").ids)]), 200),
);

app.openapi(r.createVersion, async (c) =>
  c.json(await createVersion(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json")?.desc ?? ""), 200),
);

app.openapi(r.dropEmptyVersions, async (c) => c.json(await dropEmptyVersions(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));

app.openapi(r.memberOf, async (c) => c.json(await memberOf(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));

app.openapi(r.assetInfo, async (c) => c.json(await assetInfo(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));

app.openapi(r.contentSize, async (c) => c.json(await contentSize(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));

app.openapi(r.getAsset, async (c) => c.json(await getAsset(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));

app.openapi(r.patchAsset, async (c) =>
  c.json(await patchAsset(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200),
);

app.openapi(r.deleteAsset, async (c) => {
  await deleteAssets(getDb(c.env), c.env, c.get("auth"), [c.req.valid("param").id]);
  return c.json({ ok: true as const }, 200);
});

export default app;
