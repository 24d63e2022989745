import type { z } from "@hono/zod-openapi";
import { getDb } from "../lib/db";
import { gzipJsonResponse } from "../lib/tree-answers";
import { errorAnswers, createApp, jsonBody, routeDefiner } from "../lib/openapi";
import { dir, entityByPath, groupSize, groupsWithUsers, previewList, searchGroups } from "./browse";
import { deleteMembers, insertMembers, moveMembers } from "./members";
import * as s from "./schemas";
import { createGroup, deleteGroups, getGroup, groupStorage, purgeGroups, restoreGroups, updateGroup } from "./service";
import { listDeleted } from "./trash";
import { aclRoots, members, roots, subtree } from "./tree";

/** /api/group: the tree of groups (folders and teams). Every handler asks the access engine first. */
const app = createApp();
const tags = ["group"];
const objectErrors = errorAnswers({
  403: "Readable, but the permission is missing (or admins only)",
  404: "No such object, or the caller may not read it",
  409: "Name clash or wrong state",
});
const route = routeDefiner(tags, objectErrors);

app.openapi(route("get", "/roots", "Real top-level groups the caller can read", {}, s.group.array()), async (c) =>
  c.json(await roots(getDb(c.env), c.get("auth")), 200),
);
app.openapi(
  route("get", "/acl-roots", "Top-most groups the caller can read (children of 'Доступные Файлы')", {}, s.group.array()),
  async (c) => c.json(await aclRoots(getDb(c.env), c.get("auth")), 200),
);
app.openapi(
  route(
    "get",
    "/members/{id}",
    "A page of a group's contents (page size 50; a short page is the last)",
    { params: s.idParam, query: s.membersQuery },
    s.member.array(),
  ),
  async (c) => c.json(await members(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("query")), 200),
);
app.openapi(
  route(
    "get",
    "/subtree/{id}",
    "Readable groups below a group, in path order (whole, or a page after a given group)",
    { params: s.idParam, query: s.subtreeQuery },
    s.treeNode.array(),
  ),
  async (c) =>
    // The JSON text comes whole from SQLite, compressed and kept while the tree is unchanged (lib/tree-answers.ts).
    gzipJsonResponse<z.infer<typeof s.treeNode>[]>(
      c,
      await subtree(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("query")),
    ),
);
app.openapi(
  route("get", "/get/{id}", "One group, with the caller's permissions on it", { params: s.idParam }, s.groupWithAccess),
  async (c) => c.json(await getGroup(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);
app.openapi(
  route(
    "post",
    "/create",
    "Create a group under a parent (the virtual root id: a top-level group, admins only)",
    { body: jsonBody(s.createGroupBody) },
    s.created,
  ),
  async (c) => c.json(await createGroup(getDb(c.env), c.get("auth"), c.req.valid("json")), 200),
);
app.openapi(
  route(
    "patch",
    "/update/{id}",
    "Rename a group or change its defaults",
    { params: s.idParam, body: jsonBody(s.updateGroupBody) },
    s.groupWithAccess,
  ),
  async (c) => c.json(await updateGroup(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200),
);
app.openapi(
  route("delete", "/delete/{id}", "Delete a group and its subtree (recoverable until purge)", { params: s.idParam }, s.changed),
  async (c) => c.json(await deleteGroups(getDb(c.env), c.get("auth"), [c.req.valid("param").id]), 200),
);
app.openapi(
  route("post", "/delete-list", "Delete several groups (recoverable until purge)", { body: jsonBody(s.idsBody) }, s.changed),
  async (c) => c.json(await deleteGroups(getDb(c.env), c.get("auth"), c.req.valid("json").ids), 200),
);
app.openapi(
  route("post", "/restore", "Restore deleted groups with what their delete hid", { body: jsonBody(s.idsBody) }, s.changed),
  async (c) => c.json(await restoreGroups(getDb(c.env), c.get("auth"), c.req.valid("json").ids), 200),
);
app.openapi(
  route("post", "/purge", "Permanently remove deleted groups, their memberships and rules", { body: jsonBody(s.idsBody) }, s.changed),
  async (c) => c.json(await purgeGroups(getDb(c.env), c.env, c.get("auth"), c.req.valid("json").ids), 200),
);
app.openapi(
  route(
    "get",
    "/deleted",
    "«Удалённые»: groups deleted on their own, newest first, with who deleted them and what a purge removes (the caller's own; admins: all)",
    { query: s.pageQuery },
    s.deletedGroup.array(),
  ),
  async (c) => c.json(await listDeleted(getDb(c.env), c.get("auth"), c.req.valid("query")), 200),
);
app.openapi(
  route("post", "/insert-members", "Add assets or users (team members) to a group", { body: jsonBody(s.membersBody) }, s.changed),
  async (c) => {
    const b = c.req.valid("json");
    return c.json(await insertMembers(getDb(c.env), c.get("auth"), b.group_id, b.members), 200);
  },
);
app.openapi(
  route("post", "/delete-members", "Remove assets or users from a group", { body: jsonBody(s.membersBody) }, s.changed),
  async (c) => {
    const b = c.req.valid("json");
    return c.json(await deleteMembers(getDb(c.env), c.get("auth"), b.group_id, b.members), 200);
  },
);
app.openapi(
  route("post", "/move-member", "Move one asset or group from one group to another", { body: jsonBody(s.moveMemberBody) }, s.changed),
  async (c) => {
    const { from, to, ...el } = c.req.valid("json");
    return c.json(await moveMembers(getDb(c.env), c.get("auth"), from, to, [el]), 200);
  },
);
app.openapi(
  route(
    "post",
    "/move-members",
    "Move assets and groups from one group to another, all or nothing",
    { body: jsonBody(s.moveMembersBody) },
    s.changed,
  ),
  async (c) => {
    const b = c.req.valid("json");
    return c.json(await moveMembers(getDb(c.env), c.get("auth"), b.from, b.to, b.members), 200);
  },
);
app.openapi(route("get", "/search", "Readable groups whose name contains q", { query: s.searchQuery }, s.group.array()), async (c) => {
  const q = c.req.valid("query");
  return c.json(await searchGroups(getDb(c.env), c.get("auth"), q.q, q.skip, q.take), 200);
});
app.openapi(
  route("get", "/entity-by-path", "Resolve a path of names from the virtual root", { query: s.pathQuery }, s.entityRef),
  async (c) => c.json(await entityByPath(getDb(c.env), c.get("auth"), c.req.valid("query").path), 200),
);
app.openapi(
  route("get", "/dir", "Directory listing of the group at a path (disk helper)", { query: s.dirQuery }, s.dirEntry.array()),
  async (c) => {
    const q = c.req.valid("query");
    return c.json(await dir(getDb(c.env), c.get("auth"), q.path, q.skip, q.take), 200);
  },
);
app.openapi(
  route("get", "/group-size/{id}", "How many readable groups and assets are below a group", { params: s.idParam }, s.groupSize),
  async (c) => c.json(await groupSize(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);
app.openapi(route("get", "/groups-with-users", "Teams: groups with users as members (admins)", {}, s.teamSummary.array()), async (c) =>
  c.json(await groupsWithUsers(getDb(c.env), c.get("auth")), 200),
);
app.openapi(
  route("get", "/storage/{id}", "The default storage for new assets in a group (own or inherited)", { params: s.idParam }, s.groupStorage),
  async (c) => c.json(await groupStorage(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);
app.openapi(
  route("post", "/preview-list", "Up to four asset ids per group for folder thumbnails", { body: jsonBody(s.idsBody) }, s.previewList),
  async (c) => c.json(await previewList(getDb(c.env), c.get("auth"), c.req.valid("json").ids), 200),
);

export default app;
