import type { z } from "@hono/zod-openapi";
import { getDb } from "../lib/db";
import { gzipJsonResponse } from "../lib/tree-answers";
import { createApp } from "../lib/openapi";
import { dir, entityByPath, groupSize, groupsWithUsers, previewList, searchGroups } from "./browse";
import { deleteMembers, insertMembers, moveMembers } from "./members";
import * as r from "../../shared/groups/contract";
import type { treeNode } from "../../shared/groups/schemas";
import { createGroup, deleteGroups, getGroup, groupStorage, purgeGroups, restoreGroups, updateGroup } from "./service";
import { listDeleted } from "./trash";
import { aclRoots, members, roots, subtree } from "./tree";

/** /api/group: the handlers of ./contract.ts's routes, the tree of groups (folders and teams). Every handler asks the access engine first. */
const app = createApp();

app.openapi(r.roots, async (c) => c.json(await roots(getDb(c.env), c.get("auth")), 200));
app.openapi(r.aclRoots, async (c) => c.json(await aclRoots(getDb(c.env), c.get("auth")), 200));
app.openapi(r.members, async (c) => c.json(await members(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("query")), 200));
app.openapi(r.subtree, async (c) =>
  // The JSON text comes whole from SQLite, compressed and kept while the tree is unchanged (lib/tree-answers.ts).
  gzipJsonResponse<z.infer<typeof treeNode>[]>(
    c,
    await subtree(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("query")),
  ),
);
app.openapi(r.getGroup, async (c) => c.json(await getGroup(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));
app.openapi(r.createGroup, async (c) => c.json(await createGroup(getDb(c.env), c.get("auth"), c.req.valid("json")), 200));
app.openapi(r.updateGroup, async (c) =>
  c.json(await updateGroup(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200),
);
app.openapi(r.deleteGroup, async (c) => c.json(await deleteGroups(getDb(c.env), c.get("auth"), [c.req.valid("param").id]), 200));
app.openapi(r.deleteGroups, async (c) => c.json(await deleteGroups(getDb(c.env), c.get("auth"), c.req.valid("json").ids), 200));
app.openapi(r.restoreGroups, async (c) => c.json(await restoreGroups(getDb(c.env), c.get("auth"), c.req.valid("json").ids), 200));
app.openapi(r.purgeGroups, async (c) => c.json(await purgeGroups(getDb(c.env), c.env, c.get("auth"), c.req.valid("json").ids), 200));
app.openapi(r.listDeleted, async (c) => c.json(await listDeleted(getDb(c.env), c.get("auth"), c.req.valid("query")), 200));
app.openapi(r.insertMembers, async (c) => {
  const b = c.req.valid("json");
  return c.json(await insertMembers(getDb(c.env), c.get("auth"), b.group_id, b.members), 200);
});
app.openapi(r.deleteMembers, async (c) => {
  const b = c.req.valid("json");
  return c.json(await deleteMembers(getDb(c.env), c.get("auth"), b.group_id, b.members), 200);
});
app.openapi(r.moveMember, async (c) => {
  const { from, to, ...el } = c.req.valid("json");
  return c.json(await moveMembers(getDb(c.env), c.get("auth"), from, to, [el]), 200);
});
app.openapi(r.moveMembers, async (c) => {
  const b = c.req.valid("json");
  return c.json(await moveMembers(getDb(c.env), c.get("auth"), b.from, b.to, b.members), 200);
});
app.openapi(r.searchGroups, async (c) => {
  const q = c.req.valid("query");
  return c.json(await searchGroups(getDb(c.env), c.get("auth"), q.q, q.skip, q.take), 200);
});
app.openapi(r.entityByPath, async (c) => c.json(await entityByPath(getDb(c.env), c.get("auth"), c.req.valid("query").path), 200));
app.openapi(r.dir, async (c) => {
  const q = c.req.valid("query");
  return c.json(await dir(getDb(c.env), c.get("auth"), q.path, q.skip, q.take), 200);
});
app.openapi(r.groupSize, async (c) => c.json(await groupSize(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));
app.openapi(r.groupsWithUsers, async (c) => c.json(await groupsWithUsers(getDb(c.env), c.get("auth")), 200));
app.openapi(r.groupStorage, async (c) => c.json(await groupStorage(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));
app.openapi(r.previewList, async (c) => c.json(await previewList(getDb(c.env), c.get("auth"), c.req.valid("json").ids), 200));

export default app;
