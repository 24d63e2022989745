import { createUser } from "../helpers";
import { call, grant, uniq } from "../fixtures";
import { adminOnly, signedIn, type RouteCase, type World } from "./types";

/** /api/user: administration is admins-only (403 to everyone else signed in); own settings for all. */

const freshUser = () => {
  const login = uniq("matrix").toLowerCase();
  return createUser({ login, password: `pw-${login}` });
};
const freshRule = async (w: World) => grant(await freshUser(), w.shared.id, ["read"]);
const freshRobot = async (w: World) => {
  const r = await call("/api/user", {
    method: "POST",
    json: { user_name: "робот", user_login: uniq("robot").toLowerCase(), user_passwd: "robot-password", enabled: true, is_robot: true },
    bearer: w.adminBearer,
  });
  return r.body.user_id as string;
};

export const userCases: RouteCase[] = [
  { route: "GET /api/user/ui_settings", request: () => ({ path: "/api/user/ui_settings" }), expect: signedIn(200) },
  {
    route: "PATCH /api/user/ui_settings",
    request: () => ({ method: "PATCH", path: "/api/user/ui_settings", json: { theme: "dark" } }),
    expect: signedIn(200),
  },
  { route: "GET /api/user/bookmarks", request: () => ({ path: "/api/user/bookmarks" }), expect: signedIn(200) },
  // Bookmarking S and P: each caller gets back only what it can read (the leak check holds the rest).
  {
    route: "PATCH /api/user/bookmarks",
    request: (w) => ({ method: "PATCH", path: "/api/user/bookmarks", json: [w.shared.id, w.priv.id] }),
    expect: signedIn(200),
  },
  { route: "GET /api/user/acl-list", request: () => ({ path: "/api/user/acl-list" }), expect: adminOnly() },
  {
    route: "POST /api/user/acl",
    request: async (w) => ({ method: "POST", path: "/api/user/acl", json: { subj: await freshUser(), obj: w.shared.id, acl: ["read"] } }),
    expect: adminOnly(),
  },
  { route: "GET /api/user/acl/:id", request: async (w) => ({ path: `/api/user/acl/${await freshRule(w)}` }), expect: adminOnly() },
  {
    route: "PATCH /api/user/acl/:id",
    request: async (w) => ({ method: "PATCH", path: `/api/user/acl/${await freshRule(w)}`, json: { acl: ["update"] } }),
    expect: adminOnly(),
  },
  {
    route: "DELETE /api/user/acl/:id",
    request: async (w) => ({ method: "DELETE", path: `/api/user/acl/${await freshRule(w)}` }),
    expect: adminOnly(),
  },
  { route: "GET /api/user/user-acl/:id", request: (w) => ({ path: `/api/user/user-acl/${w.users.reader.id}` }), expect: adminOnly() },
  { route: "GET /api/user/group-acl/:id", request: (w) => ({ path: `/api/user/group-acl/${w.shared.id}` }), expect: adminOnly() },
  {
    route: "GET /api/user/membership/:id",
    request: (w) => ({ path: `/api/user/membership/${w.users.reader.id}` }),
    expect: { ...adminOnly(), reader: 200 },
  },
  {
    route: "PATCH /api/user/membership/:id",
    request: async () => ({ method: "PATCH", path: `/api/user/membership/${await freshUser()}`, json: { groups: [] } }),
    expect: adminOnly(),
  },
  { route: "GET /api/user", request: () => ({ path: "/api/user" }), expect: adminOnly() },
  {
    route: "POST /api/user",
    request: () => ({
      method: "POST",
      path: "/api/user",
      json: { user_name: "Новый", user_login: uniq("new").toLowerCase(), user_passwd: "new-password", enabled: true },
    }),
    expect: adminOnly(),
  },
  { route: "GET /api/user/:id", request: async () => ({ path: `/api/user/${await freshUser()}` }), expect: adminOnly() },
  {
    route: "PATCH /api/user/:id",
    request: async () => ({ method: "PATCH", path: `/api/user/${await freshUser()}`, json: { user_name: "Другое имя" } }),
    expect: adminOnly(),
  },
  {
    route: "DELETE /api/user/:id",
    request: async () => ({ method: "DELETE", path: `/api/user/${await freshUser()}` }),
    expect: adminOnly(),
  },
  { route: "GET /api/user/:id/tokens", request: async (w) => ({ path: `/api/user/${await freshRobot(w)}/tokens` }), expect: adminOnly() },
  {
    route: "POST /api/user/:id/tokens",
    request: async (w) => ({ method: "POST", path: `/api/user/${await freshRobot(w)}/tokens`, json: { name: "матрица" } }),
    expect: adminOnly(),
  },
  {
    route: "DELETE /api/user/:id/tokens/:tokenId",
    request: async (w) => {
      const robot = await freshRobot(w);
      const t = await call(`/api/user/${robot}/tokens`, { method: "POST", json: { name: "x" }, bearer: w.adminBearer });
      return { method: "DELETE", path: `/api/user/${robot}/tokens/${t.body.token_id}` };
    },
    expect: adminOnly(),
  },
];
