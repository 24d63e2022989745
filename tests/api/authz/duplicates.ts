import { sharedAsset } from "./asset-world";
import { onShared, signedIn, type RouteCase } from "./types";

/**
 * /api/duplicates and POST /api/search/similar (docs/decisions/058-duplicates-and-look-alikes.md): on an asset,
 * the caller must read it (404 like a missing one otherwise); the lists name only what the caller can read.
 */
export const duplicateCases: RouteCase[] = [
  {
    route: "GET /api/duplicates/of/:asset_id",
    request: async (w) => {
      const a = await sharedAsset(w);
      return { path: `/api/duplicates/of/${a.id}`, secrets: [a.name] };
    },
    expect: onShared(200, 200),
  },
  {
    route: "GET /api/duplicates",
    request: () => ({ path: "/api/duplicates?take=100" }),
    expect: signedIn(200),
  },
  {
    route: "POST /api/search/similar",
    request: async (w) => {
      const a = await sharedAsset(w);
      return { method: "POST", path: "/api/search/similar", json: { like: a.id, max_distance: 64 }, secrets: [a.name] };
    },
    expect: onShared(200, 200),
  },
];
