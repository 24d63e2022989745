import { adminOnly, onShared, signedIn, type RouteCase, type World } from "./types";

/** /api/group. Mutating calls act on a fresh group under S, so personas never disturb each other. */

const fresh = async (w: World) => {
  const g = await w.freshInShared();
  return { g, secrets: [g.name, g.id] };
};
/** The path to S as each persona's tree shows it: admins see R/S, readers see S at the top. */
const pathToShared = (w: World, as: string) => (as === "admin" ? `/${w.root.name}/${w.shared.name}` : `/${w.shared.name}`);
const q = encodeURIComponent;

export const groupCases: RouteCase[] = [
  { route: "GET /api/group/roots", request: () => ({ path: "/api/group/roots" }), expect: signedIn(200) },
  { route: "GET /api/group/acl-roots", request: () => ({ path: "/api/group/acl-roots" }), expect: signedIn(200) },
  { route: "GET /api/group/members/:id", request: (w) => ({ path: `/api/group/members/${w.shared.id}` }), expect: onShared(200, 200) },
  { route: "GET /api/group/subtree/:id", request: (w) => ({ path: `/api/group/subtree/${w.shared.id}` }), expect: onShared(200, 200) },
  { route: "GET /api/group/get/:id", request: (w) => ({ path: `/api/group/get/${w.shared.id}` }), expect: onShared(200, 200) },
  { route: "GET /api/group/search", request: (w) => ({ path: `/api/group/search?q=${q(w.tag)}` }), expect: signedIn(200) },
  {
    route: "GET /api/group/entity-by-path",
    request: (w, as) => ({ path: `/api/group/entity-by-path?path=${q(pathToShared(w, as))}` }),
    expect: onShared(200, 200),
  },
  {
    route: "GET /api/group/dir",
    request: (w, as) => ({ path: `/api/group/dir?path=${q(pathToShared(w, as))}` }),
    expect: onShared(200, 200),
  },
  {
    route: "GET /api/group/group-size/:id",
    request: (w) => ({ path: `/api/group/group-size/${w.shared.id}` }),
    expect: onShared(200, 200),
  },
  { route: "GET /api/group/storage/:id", request: (w) => ({ path: `/api/group/storage/${w.shared.id}` }), expect: onShared(200, 200) },
  { route: "GET /api/group/groups-with-users", request: () => ({ path: "/api/group/groups-with-users" }), expect: adminOnly(200) },
  {
    route: "POST /api/group/preview-list",
    request: (w) => ({ method: "POST", path: "/api/group/preview-list", json: { ids: [w.shared.id] } }),
    expect: onShared(200, 200),
  },
  {
    route: "POST /api/group/create",
    request: (w) => ({
      method: "POST",
      path: "/api/group/create",
      json: { parent: w.shared.id, group_name: `${w.tag} ${crypto.randomUUID()}` },
    }),
    expect: onShared(403, 403),
  },
  {
    route: "PATCH /api/group/update/:id",
    request: async (w) => {
      const { g, secrets } = await fresh(w);
      return {
        method: "PATCH",
        path: `/api/group/update/${g.id}`,
        json: { group_name: `${g.name} 2` },
        secrets: [...secrets, `${g.name} 2`],
      };
    },
    expect: onShared(403, 200),
  },
  {
    route: "DELETE /api/group/delete/:id",
    request: async (w) => {
      const { g, secrets } = await fresh(w);
      return { method: "DELETE", path: `/api/group/delete/${g.id}`, secrets };
    },
    expect: onShared(403, 403),
  },
  {
    route: "POST /api/group/delete-list",
    request: async (w) => {
      const { g, secrets } = await fresh(w);
      return { method: "POST", path: "/api/group/delete-list", json: { ids: [g.id] }, secrets };
    },
    expect: onShared(403, 403),
  },
  {
    route: "POST /api/group/restore",
    request: async (w) => {
      const g = await w.deletedInShared();
      return { method: "POST", path: "/api/group/restore", json: { ids: [g.id] }, secrets: [g.name] };
    },
    expect: onShared(403, 403),
  },
  {
    // Everyone signed in has a list (their own deletes); a group an admin deleted appears in the admin's only.
    route: "GET /api/group/deleted",
    request: async (w) => {
      const g = await w.deletedInShared();
      return { path: "/api/group/deleted", secrets: [g.name] };
    },
    expect: signedIn(200),
  },
  {
    route: "POST /api/group/purge",
    request: async (w) => {
      const g = await w.deletedInShared();
      return { method: "POST", path: "/api/group/purge", json: { ids: [g.id] }, secrets: [g.name] };
    },
    expect: onShared(403, 403),
  },
  {
    route: "POST /api/group/insert-members",
    request: async (w) => {
      const { g, secrets } = await fresh(w);
      return {
        method: "POST",
        path: "/api/group/insert-members",
        json: { group_id: g.id, members: [{ el_id: w.users.none.id, el_type: "user" }] },
        secrets,
      };
    },
    expect: onShared(403, 403),
  },
  {
    route: "POST /api/group/delete-members",
    request: async (w) => {
      const { g, secrets } = await fresh(w);
      return {
        method: "POST",
        path: "/api/group/delete-members",
        json: { group_id: g.id, members: [{ el_id: w.users.none.id, el_type: "user" }] },
        secrets,
      };
    },
    expect: onShared(403, 403),
  },
  {
    route: "POST /api/group/move-member",
    request: async (w) => {
      const [a, b] = [await fresh(w), await fresh(w)];
      return {
        method: "POST",
        path: "/api/group/move-member",
        json: { el_id: a.g.id, el_type: "group", from: w.shared.id, to: b.g.id },
        secrets: [...a.secrets, ...b.secrets],
      };
    },
    expect: onShared(403, 403),
  },
  {
    route: "POST /api/group/move-members",
    request: async (w) => {
      const [a, b] = [await fresh(w), await fresh(w)];
      return {
        method: "POST",
        path: "/api/group/move-members",
        json: { from: w.shared.id, to: b.g.id, members: [{ el_id: a.g.id, el_type: "group" }] },
        secrets: [...a.secrets, ...b.secrets],
      };
    },
    expect: onShared(403, 403),
  },
];
