import { getDb } from "../lib/db";
import { errorAnswers, createApp, jsonBody, routeDefiner } from "../lib/openapi";
import { createRule, deleteRule, getRule, groupRules, listRules, updateRule, userRules } from "./acl";
import * as s from "./schemas";
import { getBookmarks, getUiSettings, patchUiSettings, setBookmarks } from "./self";
import {
  createUser,
  deleteUser,
  getUser,
  issueToken,
  listTokens,
  listUsers,
  membership,
  revokeToken,
  setMembership,
  updateUser,
} from "./service";

/**
 * /api/user: user administration and access rules (admins; others get 403), the caller's own
 * settings and bookmarks. Static paths are registered before /{id} so they are never read as an id.
 */
const app = createApp();
const tags = ["user"];
const errors = errorAnswers({ 403: "Admins only", 404: "Not found", 409: "Clash" });
const route = routeDefiner(tags, errors);

// The caller's own settings.
app.openapi(route("get", "/ui_settings", "The caller's interface settings", {}, s.settings), async (c) =>
  c.json(await getUiSettings(getDb(c.env), c.get("auth")), 200),
);
app.openapi(
  route(
    "patch",
    "/ui_settings",
    "Merge into the caller's interface settings (null removes a key)",
    { body: jsonBody(s.settings) },
    s.settings,
  ),
  async (c) => c.json(await patchUiSettings(getDb(c.env), c.get("auth"), c.req.valid("json")), 200),
);
app.openapi(route("get", "/bookmarks", "The caller's bookmarked groups it can still read", {}, s.bookmark.array()), async (c) =>
  c.json(await getBookmarks(getDb(c.env), c.get("auth")), 200),
);
app.openapi(
  route(
    "patch",
    "/bookmarks",
    "Replace the caller's bookmarks (group ids, in order)",
    { body: jsonBody(s.bookmarksBody) },
    s.bookmark.array(),
  ),
  async (c) => c.json(await setBookmarks(getDb(c.env), c.get("auth"), c.req.valid("json")), 200),
);

// Access rules (admins).
app.openapi(route("get", "/acl-list", "Access rules, filtered by subject or object", { query: s.rulesQuery }, s.rule.array()), async (c) =>
  c.json(await listRules(getDb(c.env), c.get("auth"), c.req.valid("query")), 200),
);
app.openapi(
  route("post", "/acl", "Create an access rule (subj: user or group, obj: group or asset)", { body: jsonBody(s.createRuleBody) }, s.rule),
  async (c) => c.json(await createRule(getDb(c.env), c.get("auth"), c.req.valid("json")), 200),
);
app.openapi(route("get", "/acl/{id}", "One access rule", { params: s.idParam }, s.rule), async (c) =>
  c.json(await getRule(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);
app.openapi(
  route("patch", "/acl/{id}", "Change a rule's permissions", { params: s.idParam, body: jsonBody(s.updateRuleBody) }, s.rule),
  async (c) => c.json(await updateRule(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json").acl), 200),
);
app.openapi(route("delete", "/acl/{id}", "Delete an access rule", { params: s.idParam }, s.ok), async (c) =>
  c.json(await deleteRule(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);
app.openapi(route("get", "/user-acl/{id}", "Rules naming a user", { params: s.idParam }, s.rule.array()), async (c) =>
  c.json(await userRules(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);
app.openapi(route("get", "/group-acl/{id}", "Rules on a group and of it as a team", { params: s.idParam }, s.rule.array()), async (c) =>
  c.json(await groupRules(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);

// Teams of a user.
app.openapi(
  route("get", "/membership/{id}", "Teams (groups) a user is a member of (admins, or the user)", { params: s.idParam }, s.team.array()),
  async (c) => c.json(await membership(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);
app.openapi(
  route(
    "patch",
    "/membership/{id}",
    "Replace a user's teams (admins)",
    { params: s.idParam, body: jsonBody(s.membershipBody) },
    s.team.array(),
  ),
  async (c) => c.json(await setMembership(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json").groups), 200),
);

// Users (admins).
app.openapi(
  route("get", "/", "Users, filtered by enabled and a name/login substring", { query: s.usersQuery }, s.user.array()),
  async (c) => c.json(await listUsers(getDb(c.env), c.get("auth"), c.req.valid("query")), 200),
);
app.openapi(route("post", "/", "Create a user", { body: jsonBody(s.createUserBody) }, s.createdUser), async (c) =>
  c.json(await createUser(getDb(c.env), c.get("auth"), c.req.valid("json")), 200),
);
app.openapi(route("get", "/{id}", "One user", { params: s.idParam }, s.user), async (c) =>
  c.json(await getUser(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);
app.openapi(
  route(
    "patch",
    "/{id}",
    "Change a user; disabling or a new password ends their sessions",
    { params: s.idParam, body: jsonBody(s.updateUserBody) },
    s.user,
  ),
  async (c) => c.json(await updateUser(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200),
);
app.openapi(
  route(
    "delete",
    "/{id}",
    "Delete a user: what they own passes to the heir (default: the caller); their sessions, tokens, app passwords, rules and memberships end",
    { params: s.idParam, query: s.deleteUserQuery },
    s.ok,
  ),
  async (c) => c.json(await deleteUser(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("query").heir), 200),
);

// Robots' API tokens (admins).
app.openapi(
  route("get", "/{id}/tokens", "A robot's API tokens (never the secrets)", { params: s.idParam }, s.tokenInfo.array()),
  async (c) => c.json(await listTokens(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);
app.openapi(
  route(
    "post",
    "/{id}/tokens",
    "Issue an API token to a robot; the token is shown once",
    { params: s.idParam, body: jsonBody(s.tokenBody) },
    s.issuedToken,
  ),
  async (c) => c.json(await issueToken(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200),
);
app.openapi(route("delete", "/{id}/tokens/{tokenId}", "Revoke an API token", { params: s.tokenParams }, s.ok), async (c) => {
  const p = c.req.valid("param");
  return c.json(await revokeToken(getDb(c.env), c.get("auth"), p.id, p.tokenId), 200);
});

export default app;
