import { call } from "../fixtures";
import { freshAsset, sharedAsset } from "./asset-world";
import { adminOnly, onShared, signedIn, type RouteCase, type World } from "./types";

/** /api/storage (docs/decisions/008-storages.md): admins manage storages; the choice for an entity follows its read/update. */

const freshStorage = async (w: World) => {
  const r = await call("/api/storage/create", {
    method: "POST",
    json: { storage_name: `${w.tag} хранилище`, kind: "r2" },
    bearer: w.adminBearer,
  });
  if (r.status !== 200) throw new Error(`storage create failed: ${r.text}`);
  return r.body.storage_id as string;
};

export const storageCases: RouteCase[] = [
  {
    route: "POST /api/storage/create",
    request: (w) => ({ method: "POST", path: "/api/storage/create", json: { storage_name: `${w.tag} хранилище`, kind: "r2" } }),
    expect: adminOnly(),
  },
  { route: "GET /api/storage/list", request: () => ({ path: "/api/storage/list" }), expect: signedIn(200) },
  {
    route: "PATCH /api/storage/update/:id",
    request: async (w) => ({
      method: "PATCH",
      path: `/api/storage/update/${await freshStorage(w)}`,
      json: { storage_name: `${w.tag} другое` },
    }),
    expect: adminOnly(),
  },
  { route: "GET /api/storage/usage", request: () => ({ path: "/api/storage/usage" }), expect: adminOnly() },
  {
    route: "GET /api/storage/for-entity/:id",
    request: async (w) => {
      const a = await sharedAsset(w);
      return { path: `/api/storage/for-entity/${a.id}`, secrets: [a.name, a.id] };
    },
    expect: onShared(200, 200),
  },
  {
    route: "POST /api/storage/for-entity/:id",
    request: async (w) => {
      const a = await freshAsset(w);
      return { method: "POST", path: `/api/storage/for-entity/${a.id}`, json: { storage_id: null }, secrets: a.secrets };
    },
    expect: onShared(403, 200),
  },
];
