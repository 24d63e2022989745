import { adminOnly, onShared, open, signedIn, type RouteCase } from "./types";

/** System and auth routes. */
export const systemCases: RouteCase[] = [
  { route: "GET /api/version", request: () => ({ path: "/api/version" }), expect: open(200) },
  { route: "GET /api/health", request: () => ({ path: "/api/health" }), expect: open(200) },
  { route: "GET /api/openapi.json", request: () => ({ path: "/api/openapi.json" }), expect: signedIn(200) },
  { route: "GET /api/docs", request: () => ({ path: "/api/docs" }), expect: signedIn(200) },
  // Admins and admin robots only (docs/decisions/044-metrics-logs-errors.md); the matrix's robot is not an admin.
  { route: "GET /api/metrics", request: () => ({ path: "/api/metrics" }), expect: adminOnly(200) },
];

export const authCases: RouteCase[] = [
  // Open routes: an empty body is a 400 for everyone, a missing cookie a 401, logout always succeeds.
  { route: "POST /api/auth/login", request: () => ({ method: "POST", path: "/api/auth/login", json: {} }), expect: open(400) },
  { route: "GET /api/auth/refresh", request: () => ({ path: "/api/auth/refresh" }), expect: open(401) },
  { route: "GET /api/auth/logout", request: () => ({ path: "/api/auth/logout" }), expect: open(200) },
  { route: "GET /api/auth/whoami", request: () => ({ path: "/api/auth/whoami" }), expect: signedIn(200) },
  { route: "GET /api/auth/user-abilities", request: () => ({ path: "/api/auth/user-abilities" }), expect: signedIn(200) },
  { route: "GET /api/auth/list-acl-perms", request: () => ({ path: "/api/auth/list-acl-perms" }), expect: signedIn(200) },
  {
    route: "GET /api/auth/entity-access/:id",
    request: (w) => ({ path: `/api/auth/entity-access/${w.shared.id}` }),
    expect: onShared(200, 200),
  },
  {
    route: "GET /api/auth/entity-user-access/:id",
    request: (w) => ({ path: `/api/auth/entity-user-access/${w.shared.id}` }),
    expect: onShared(403, 403),
  },
  {
    route: "POST /api/auth/entity-user-access",
    request: (w) => ({ method: "POST", path: "/api/auth/entity-user-access", json: { ids: [w.shared.id] } }),
    expect: onShared(403, 403),
  },
];
