import { errorAnswers, jsonBody, routeDefiner } from "../lib/route-contract";
import * as s from "./schemas";

/**
 * /api/group, served by ./routes.ts and called by the browser through call() (docs/decisions/070-route-contracts.md):
 * the tree of groups (folders and teams). Every handler asks the access engine first.
 */
const tags = ["group"];
const objectErrors = errorAnswers({
  403: "Readable, but the permission is missing (or admins only)",
  404: "No such object, or the caller may not read it",
  409: "Name clash or wrong state",
});
const route = routeDefiner(tags, objectErrors);

export const roots = route("get", "/group/roots", "Real top-level groups the caller can read", {}, s.group.array());
export const aclRoots = route(
  "get",
  "/group/acl-roots",
  "Top-most groups the caller can read (children of 'Доступные Файлы')",
  {},
  s.group.array(),
);
export const members = route(
  "get",
  "/group/members/{id}",
  "A page of a group's contents (page size 50; a short page is the last)",
  { params: s.idParam, query: s.membersQuery },
  s.member.array(),
);
export const subtree = route(
  "get",
  "/group/subtree/{id}",
  "Readable groups below a group, in path order (whole, or a page after a given group)",
  { params: s.idParam, query: s.subtreeQuery },
  s.treeNode.array(),
);
export const getGroup = route(
  "get",
  "/group/get/{id}",
  "One group, with the caller's permissions on it",
  { params: s.idParam },
  s.groupWithAccess,
);
export const createGroup = route(
  "post",
  "/group/create",
  "Create a group under a parent (the virtual root id: a top-level group, admins only)",
  { body: jsonBody(s.createGroupBody) },
  s.created,
);
export const updateGroup = route(
  "patch",
  "/group/update/{id}",
  "Rename a group or change its defaults",
  { params: s.idParam, body: jsonBody(s.updateGroupBody) },
  s.groupWithAccess,
);
export const deleteGroup = route(
  "delete",
  "/group/delete/{id}",
  "Delete a group and its subtree (recoverable until purge)",
  { params: s.idParam },
  s.changed,
);
export const deleteGroups = route(
  "post",
  "/group/delete-list",
  "Delete several groups (recoverable until purge)",
  { body: jsonBody(s.idsBody) },
  s.changed,
);
export const restoreGroups = route(
  "post",
  "/group/restore",
  "Restore deleted groups with what their delete hid",
  { body: jsonBody(s.idsBody) },
  s.changed,
);
export const purgeGroups = route(
  "post",
  "/group/purge",
  "Permanently remove deleted groups, their memberships and rules",
  { body: jsonBody(s.idsBody) },
  s.changed,
);
export const listDeleted = route(
  "get",
  "/group/deleted",
  "«Удалённые»: groups deleted on their own, newest first, with who deleted them and what a purge removes (the caller's own; admins: all)",
  { query: s.pageQuery },
  s.deletedGroup.array(),
);
export const insertMembers = route(
  "post",
  "/group/insert-members",
  "Add assets or users (team members) to a group",
  { body: jsonBody(s.membersBody) },
  s.changed,
);
export const deleteMembers = route(
  "post",
  "/group/delete-members",
  "Remove assets or users from a group",
  { body: jsonBody(s.membersBody) },
  s.changed,
);
export const moveMember = route(
  "post",
  "/group/move-member",
  "Move one asset or group from one group to another",
  { body: jsonBody(s.moveMemberBody) },
  s.changed,
);
export const moveMembers = route(
  "post",
  "/group/move-members",
  "Move assets and groups from one group to another, all or nothing",
  { body: jsonBody(s.moveMembersBody) },
  s.changed,
);
export const searchGroups = route(
  "get",
  "/group/search",
  "Readable groups whose name contains q",
  { query: s.searchQuery },
  s.group.array(),
);
export const entityByPath = route(
  "get",
  "/group/entity-by-path",
  "Resolve a path of names from the virtual root",
  { query: s.pathQuery },
  s.entityRef,
);
export const dir = route(
  "get",
  "/group/dir",
  "Directory listing of the group at a path (disk helper)",
  { query: s.dirQuery },
  s.dirEntry.array(),
);
export const groupSize = route(
  "get",
  "/group/group-size/{id}",
  "How many readable groups and assets are below a group",
  { params: s.idParam },
  s.groupSize,
);
export const groupsWithUsers = route(
  "get",
  "/group/groups-with-users",
  "Teams: groups with users as members (admins)",
  {},
  s.teamSummary.array(),
);
export const groupStorage = route(
  "get",
  "/group/storage/{id}",
  "The default storage for new assets in a group (own or inherited)",
  { params: s.idParam },
  s.groupStorage,
);
export const previewList = route(
  "post",
  "/group/preview-list",
  "Up to four asset ids per group for folder thumbnails",
  { body: jsonBody(s.idsBody) },
  s.previewList,
);
