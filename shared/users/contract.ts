import { errorAnswers, jsonBody, routeDefiner } from "../lib/route-contract";
import * as s from "./schemas";

/**
 * /api/user, served by ./routes.ts and called by the browser through call() (docs/decisions/070-route-contracts.md):
 * user administration and access rules (admins; others get 403), the caller's own settings and bookmarks.
 * ./routes.ts registers the static paths before /{id} so they are never read as an id.
 */
const tags = ["user"];
const errors = errorAnswers({ 403: "Admins only", 404: "Not found", 409: "Clash" });
const route = routeDefiner(tags, errors);

export const getUiSettings = route("get", "/user/ui_settings", "The caller's interface settings", {}, s.settings);
export const patchUiSettings = route(
  "patch",
  "/user/ui_settings",
  "Merge into the caller's interface settings (null removes a key)",
  { body: jsonBody(s.settings) },
  s.settings,
);
export const getBookmarks = route("get", "/user/bookmarks", "The caller's bookmarked groups it can still read", {}, s.bookmark.array());
export const setBookmarks = route(
  "patch",
  "/user/bookmarks",
  "Replace the caller's bookmarks (group ids, in order)",
  { body: jsonBody(s.bookmarksBody) },
  s.bookmark.array(),
);
export const listRules = route(
  "get",
  "/user/acl-list",
  "Access rules, filtered by subject or object",
  { query: s.rulesQuery },
  s.rule.array(),
);
export const createRule = route(
  "post",
  "/user/acl",
  "Create an access rule (subj: user or group, obj: group or asset)",
  { body: jsonBody(s.createRuleBody) },
  s.rule,
);
export const getRule = route("get", "/user/acl/{id}", "One access rule", { params: s.idParam }, s.rule);
export const updateRule = route(
  "patch",
  "/user/acl/{id}",
  "Change a rule's permissions",
  { params: s.idParam, body: jsonBody(s.updateRuleBody) },
  s.rule,
);
export const deleteRule = route("delete", "/user/acl/{id}", "Delete an access rule", { params: s.idParam }, s.ok);
export const userRules = route("get", "/user/user-acl/{id}", "Rules naming a user", { params: s.idParam }, s.rule.array());
export const groupRules = route(
  "get",
  "/user/group-acl/{id}",
  "Rules on a group and of it as a team",
  { params: s.idParam },
  s.rule.array(),
);
export const getMembership = route(
  "get",
  "/user/membership/{id}",
  "Teams (groups) a user is a member of (admins, or the user)",
  { params: s.idParam },
  s.team.array(),
);
export const setMembership = route(
  "patch",
  "/user/membership/{id}",
  "Replace a user's teams (admins)",
  { params: s.idParam, body: jsonBody(s.membershipBody) },
  s.team.array(),
);
export const listUsers = route(
  "get",
  "/user",
  "Users, filtered by enabled and a name/login substring",
  { query: s.usersQuery },
  s.user.array(),
);
export const createUser = route("post", "/user", "Create a user", { body: jsonBody(s.createUserBody) }, s.createdUser);
export const getUser = route("get", "/user/{id}", "One user", { params: s.idParam }, s.user);
export const updateUser = route(
  "patch",
  "/user/{id}",
  "Change a user; disabling or a new password ends their sessions",
  { params: s.idParam, body: jsonBody(s.updateUserBody) },
  s.user,
);
export const deleteUser = route(
  "delete",
  "/user/{id}",
  "Delete a user: what they own passes to the heir (default: the caller); their sessions, tokens, app passwords, rules and memberships end",
  { params: s.idParam, query: s.deleteUserQuery },
  s.ok,
);
export const listTokens = route(
  "get",
  "/user/{id}/tokens",
  "A robot's API tokens (never the secrets)",
  { params: s.idParam },
  s.tokenInfo.array(),
);
export const issueToken = route(
  "post",
  "/user/{id}/tokens",
  "Issue an API token to a robot; the token is shown once",
  { params: s.idParam, body: jsonBody(s.tokenBody) },
  s.issuedToken,
);
export const revokeToken = route("delete", "/user/{id}/tokens/{tokenId}", "Revoke an API token", { params: s.tokenParams }, s.ok);
