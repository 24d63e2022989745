import { getDb } from "../lib/db";
import { createApp } from "../lib/openapi";
import { createRule, deleteRule, getRule, groupRules, listRules, updateRule, userRules } from "./acl";
import * as r from "../../shared/users/contract";
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
 * /api/user: the handlers of ./contract.ts's routes. Static paths are registered before /{id} so they are never read
 * as an id.
 */
const app = createApp();

// The caller's own settings.
app.openapi(r.getUiSettings, async (c) => c.json(await getUiSettings(getDb(c.env), c.get("auth")), 200));
app.openapi(r.patchUiSettings, async (c) => c.json(await patchUiSettings(getDb(c.env), c.get("auth"), c.req.valid("json")), 200));
app.openapi(r.getBookmarks, async (c) => c.json(await getBookmarks(getDb(c.env), c.get("auth")), 200));
app.openapi(r.setBookmarks, async (c) => c.json(await setBookmarks(getDb(c.env), c.get("auth"), c.req.valid("json")), 200));

// Access rules (admins).
app.openapi(r.listRules, async (c) => c.json(await listRules(getDb(c.env), c.get("auth"), c.req.valid("query")), 200));
app.openapi(r.createRule, async (c) => c.json(await createRule(getDb(c.env), c.get("auth"), c.req.valid("json")), 200));
app.openapi(r.getRule, async (c) => c.json(await getRule(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));
app.openapi(r.updateRule, async (c) =>
  c.json(await updateRule(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json").acl), 200),
);
app.openapi(r.deleteRule, async (c) => c.json(await deleteRule(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));
app.openapi(r.userRules, async (c) => c.json(await userRules(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));
app.openapi(r.groupRules, async (c) => c.json(await groupRules(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));

// Teams of a user.
app.openapi(r.getMembership, async (c) => c.json(await membership(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));
app.openapi(r.setMembership, async (c) =>
  c.json(await setMembership(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json").groups), 200),
);

// Users (admins).
app.openapi(r.listUsers, async (c) => c.json(await listUsers(getDb(c.env), c.get("auth"), c.req.valid("query")), 200));
app.openapi(r.createUser, async (c) => c.json(await createUser(getDb(c.env), c.get("auth"), c.req.valid("json")), 200));
app.openapi(r.getUser, async (c) => c.json(await getUser(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));
app.openapi(r.updateUser, async (c) =>
  c.json(await updateUser(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200),
);
app.openapi(r.deleteUser, async (c) =>
  c.json(await deleteUser(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("query").heir), 200),
);

// Robots' API tokens (admins).
app.openapi(r.listTokens, async (c) => c.json(await listTokens(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));
app.openapi(r.issueToken, async (c) =>
  c.json(await issueToken(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200),
);
app.openapi(r.revokeToken, async (c) => {
  const p = c.req.valid("param");
  return c.json(await revokeToken(getDb(c.env), c.get("auth"), p.id, p.tokenId), 200);
});

export default app;
