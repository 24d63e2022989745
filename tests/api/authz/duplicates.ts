import { freshAsset, freshAssetWithContent, sharedAsset } from "./asset-world";
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
  {
    // The shared asset as the copy: readers and editors lack delete on it (403); the admin merges a fresh pair.
    route: "POST /api/duplicates/:asset_id/as-version-of/:target_id",
    request: async (w, as) => {
      if (as === "admin") {
        const [copy, target] = await Promise.all([freshAssetWithContent(w), freshAsset(w)]);
        return { method: "POST", path: `/api/duplicates/${copy.id}/as-version-of/${target.id}` };
      }
      const a = await sharedAsset(w);
      const target = await freshAsset(w);
      return { method: "POST", path: `/api/duplicates/${a.id}/as-version-of/${target.id}`, secrets: [a.name, target.name] };
    },
    expect: onShared(403, 403),
  },
];
