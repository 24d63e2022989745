import { requireAdmin } from "../lib/auth";
import { getDb } from "../lib/db";
import { errorAnswers, createApp, jsonBody, routeDefiner } from "../lib/openapi";
import { attachTags, detachTags } from "./links";
import * as s from "./schemas";
import { createTag, deleteTag, listTags, renameTag, searchTags, tagsByIds } from "./service";

/**
 * /api/tags: one vocabulary for every signed-in user to read and add to; renaming and deleting a tag
 * changes it on everyone's objects, so those are admins' (docs/decisions/032-tags-and-taxonomy.md).
 */
const app = createApp();
const route = routeDefiner(
  ["tags"],
  errorAnswers({
    403: "Admins only, or the permission on an object is missing",
    404: "No such tag, or an object the caller may not read",
    409: "A tag with this name (ignoring case and ё/е) exists",
  }),
);

app.openapi(
  route("get", "/list", "A page of tags by name (a short page is the last)", { query: s.pageQuery }, s.tag.array()),
  async (c) => {
    const q = c.req.valid("query");
    return c.json(await listTags(getDb(c.env), q.skip, q.take), 200);
  },
);
app.openapi(
  route("post", "/list-by-ids", "Tags by id (unknown ids are left out)", { body: jsonBody(s.idsBody) }, s.tag.array()),
  async (c) => c.json(await tagsByIds(getDb(c.env), c.req.valid("json").ids), 200),
);
app.openapi(
  route(
    "post",
    "/list-by-filter",
    "Tags whose name starts with q, then those containing it (case and ё/е ignored)",
    { body: jsonBody(s.tagFilterBody) },
    s.tag.array(),
  ),
  async (c) => c.json(await searchTags(getDb(c.env), c.req.valid("json")), 200),
);
app.openapi(route("post", "/create", "Create a tag", { body: jsonBody(s.tagBody) }, s.tagCreated), async (c) =>
  c.json(await createTag(getDb(c.env), c.get("auth"), c.req.valid("json").tag_name), 200),
);
app.openapi(route("patch", "/change/{id}", "Rename a tag (admins)", { params: s.idParam, body: jsonBody(s.tagBody) }, s.tag), async (c) => {
  requireAdmin(c.get("auth"));
  return c.json(await renameTag(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json").tag_name), 200);
});
app.openapi(route("delete", "/delete/{id}", "Delete a tag from everything it is on (admins)", { params: s.idParam }, s.ok), async (c) => {
  requireAdmin(c.get("auth"));
  return c.json(await deleteTag(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200);
});
// Attaching and detaching are one route twice: the same input and answer, the opposite change.
for (const [path, summary, change] of [
  ["/attach", "Put tags on assets and groups (update on each; all or nothing; idempotent)", attachTags],
  ["/detach", "Take tags off assets and groups (update on each; all or nothing; idempotent)", detachTags],
] as const)
  app.openapi(route("post", path, summary, { body: jsonBody(s.tagLinkBody) }, s.tagLinkResult), async (c) =>
    c.json(await change(getDb(c.env), c.get("auth"), c.req.valid("json")), 200),
  );

export default app;
