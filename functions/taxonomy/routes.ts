import { requireAdmin } from "../lib/auth";
import { getDb } from "../lib/db";
import { errorAnswers, createApp, jsonBody, routeDefiner } from "../lib/openapi";
import { addMember, deleteMember, listMembers, taxaOf } from "./members";
import * as s from "./schemas";
import { changeTaxon, createByPath, deleteTaxon, taxonomyTree } from "./service";

/**
 * /api/taxonomy: one classification tree. Everyone signed in reads it and files the objects they may
 * change; its shape (create, rename, move, delete) is admins' (docs/decisions/032-tags-and-taxonomy.md).
 */
const app = createApp();
const route = routeDefiner(
  ["taxonomy"],
  errorAnswers({
    403: "Admins only, or the permission on the object is missing",
    404: "No such taxon, or an object the caller may not read",
    409: "A sibling taxon has this name",
  }),
);

app.openapi(route("get", "/tree", "The whole taxonomy, each taxon after its parent, siblings by name", {}, s.taxon.array()), async (c) =>
  c.json(await taxonomyTree(getDb(c.env)), 200),
);
app.openapi(
  route(
    "post",
    "/create",
    "Create the missing taxa along a path (admins; idempotent)",
    { body: jsonBody(s.createTaxonBody) },
    s.taxonCreated,
  ),
  async (c) => {
    requireAdmin(c.get("auth"));
    return c.json(await createByPath(getDb(c.env), c.get("auth"), c.req.valid("json").path), 200);
  },
);
app.openapi(
  route(
    "patch",
    "/change/{id}",
    "Rename or move a taxon with its subtree (admins)",
    { params: s.idParam, body: jsonBody(s.changeTaxonBody) },
    s.taxon,
  ),
  async (c) => {
    requireAdmin(c.get("auth"));
    return c.json(await changeTaxon(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200);
  },
);
app.openapi(
  route("delete", "/delete/{id}", "Delete a taxon, its subtree and their memberships (admins)", { params: s.idParam }, s.ok),
  async (c) => {
    requireAdmin(c.get("auth"));
    return c.json(await deleteTaxon(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200);
  },
);
// Filing and unfiling are one route twice: the same input and answer, the opposite change.
for (const [path, summary, change] of [
  ["/add-member/{id}", "File an asset or group under a taxon (update on it; idempotent)", addMember],
  ["/del-member/{id}", "Take an asset or group out of a taxon (update on it; idempotent)", deleteMember],
] as const)
  app.openapi(route("post", path, summary, { params: s.idParam, body: jsonBody(s.memberBody) }, s.ok), async (c) =>
    c.json(await change(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json").objectId), 200),
  );
app.openapi(
  route(
    "get",
    "/list-members/{id}",
    "A page of a taxon's members the caller can read (with descendants=true, of its subtree)",
    { params: s.idParam, query: s.listMembersQuery },
    s.taxonMembersPage,
  ),
  async (c) => c.json(await listMembers(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("query")), 200),
);
app.openapi(
  route("get", "/for-entity/{id}", "The taxa an asset or group is filed under (read on it)", { params: s.idParam }, s.taxon.array()),
  async (c) => c.json(await taxaOf(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);

export default app;
