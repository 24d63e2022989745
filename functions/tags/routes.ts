import { requireAdmin } from "../lib/auth";
import { getDb } from "../lib/db";
import { createApp } from "../lib/openapi";
import * as r from "../../shared/tags/contract";
import { attachTags, detachTags } from "./links";
import { createTag, deleteTag, listTags, renameTag, searchTags, tagsByIds } from "./service";

/** /api/tags: the handlers of ./contract.ts's routes (docs/decisions/032-tags-and-taxonomy.md). */
const app = createApp();

app.openapi(r.listTags, async (c) => {
  const q = c.req.valid("query");
  return c.json(await listTags(getDb(c.env), q.skip, q.take), 200);
});
app.openapi(r.tagsByIds, async (c) => c.json(await tagsByIds(getDb(c.env), c.req.valid("json").ids), 200));
app.openapi(r.findTags, async (c) => c.json(await searchTags(getDb(c.env), c.req.valid("json")), 200));
app.openapi(r.createTag, async (c) => c.json(await createTag(getDb(c.env), c.get("auth"), c.req.valid("json").tag_name), 200));
app.openapi(r.renameTag, async (c) => {
  requireAdmin(c.get("auth"));
  return c.json(await renameTag(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json").tag_name), 200);
});
app.openapi(r.deleteTag, async (c) => {
  requireAdmin(c.get("auth"));
  return c.json(await deleteTag(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200);
});
for (const [route, change] of [
  [r.attachTags, attachTags],
  [r.detachTags, detachTags],
] as const)
  app.openapi(route, async (c) => c.json(await change(getDb(c.env), c.get("auth"), c.req.valid("json")), 200));

export default app;
