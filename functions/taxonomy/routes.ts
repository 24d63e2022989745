import { requireAdmin } from "../lib/auth";
import { getDb } from "../lib/db";
import { createApp } from "../lib/openapi";
import * as r from "../../shared/taxonomy/contract";
import { addMember, deleteMember, listMembers, taxaOf } from "./members";
import { changeTaxon, createByPath, deleteTaxon, taxonomyTree } from "./service";

/** /api/taxonomy: the handlers of ./contract.ts's routes (docs/decisions/032-tags-and-taxonomy.md). */
const app = createApp();

app.openapi(r.taxonomyTree, async (c) => c.json(await taxonomyTree(getDb(c.env)), 200));
app.openapi(r.createTaxon, async (c) => {
  requireAdmin(c.get("auth"));
  return c.json(await createByPath(getDb(c.env), c.get("auth"), c.req.valid("json").path), 200);
});
app.openapi(r.changeTaxon, async (c) => {
  requireAdmin(c.get("auth"));
  return c.json(await changeTaxon(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200);
});
app.openapi(r.deleteTaxon, async (c) => {
  requireAdmin(c.get("auth"));
  return c.json(await deleteTaxon(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200);
});
// Filing and unfiling are one route twice: the same input and answer, the opposite change.
for (const [route, change] of [
  [r.addMember, addMember],
  [r.deleteMember, deleteMember],
] as const)
  app.openapi(route, async (c) =>
    c.json(await change(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json").objectId), 200),
  );
app.openapi(r.listMembers, async (c) =>
  c.json(await listMembers(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("query")), 200),
);
app.openapi(r.taxaOf, async (c) => c.json(await taxaOf(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));

export default app;
