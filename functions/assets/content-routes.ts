import type { Context } from "hono";
import type { Variant } from "../../db/schema";
import { getDb } from "../lib/db";
import type { AppEnv } from "../lib/env";
import { createApp } from "../lib/openapi";
import * as r from "../../shared/assets/contract";
import { requireAssets } from "./guard";
import { playLink } from "./play-links";
import previewRoutes from "./preview-routes";
import { streamVariant } from "./http-content";
import { findVariant, playableVariant, rightFor, variantBytesById } from "./versions";

/** /api/asset/content: downloads and playback streamed from storage (Range, ETag, Content-Disposition); ./contract.ts. */
const app = createApp();
app.route("/", previewRoutes);

const send = (c: Context<AppEnv>, v: Variant) => streamVariant(getDb(c.env), c.env, c.req.raw, v, "attachment", c.get("requestId"));

app.openapi(r.download, async (c) => {
  const { id, version, variant } = c.req.valid("param");
  const db = getDb(c.env);
  await requireAssets(db, c.get("auth"), "read", [id]);
  const v = await findVariant(db, id, version, variant);
  if (rightFor(v) !== "read") await requireAssets(db, c.get("auth"), rightFor(v), [id]);
  return await send(c, v);
});

app.openapi(r.downloadVariant, async (c) => await send(c, await variantBytesById(getDb(c.env), c.get("auth"), c.req.valid("param").id)));

const answerPlay = async (c: Context<AppEnv>, v: Variant) => c.json(await playLink(c.env, c.req.url, c.get("auth"), v.variantId), 200);

app.openapi(r.play, async (c) => answerPlay(c, await playableVariant(getDb(c.env), c.get("auth"), c.req.valid("param").id)));

for (const route of [r.playVariant, r.playVariantByGet])
  app.openapi(route, async (c) => answerPlay(c, await variantBytesById(getDb(c.env), c.get("auth"), c.req.valid("param").id)));

export default app;
