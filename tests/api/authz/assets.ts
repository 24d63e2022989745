import { adminOnly, onShared, signedIn, type RouteCase, type World } from "./types";
import { call } from "../fixtures";
import { sharedAsset, target } from "./asset-world";

/**
 * /api/asset. Rights on an asset in S come from the rules on S (docs/decisions/003, 009): readers
 * (reader, robot) read, editors also update, nobody but admins has create, delete or download there.
 * Mutating calls act on a fresh asset, so personas never disturb each other.
 */

const shared = async (w: World) => {
  const a = await sharedAsset(w);
  return { a, secrets: [a.name, a.id, a.variantId] };
};
const freshClass = async (w: World) => {
  const r = await call("/api/asset/class", {
    method: "POST",
    json: { name: `${w.tag} класс ${crypto.randomUUID()}` },
    bearer: w.adminBearer,
  });
  return r.body.id as string;
};

/** Reading the shared asset: readers, editors and admins 200; those who cannot read S 404. */
const reads = (
  route: string,
  path: (a: { id: string; variantId: string }) => string,
  method = "GET",
  json?: (a: { id: string; variantId: string }) => unknown,
): RouteCase => ({
  route,
  request: async (w) => {
    const { a, secrets } = await shared(w);
    return { method, path: path(a), json: json?.(a), secrets };
  },
  expect: onShared(200, 200),
});

export const assetCases: RouteCase[] = [
  // Classes: everyone reads them, admins change them.
  { route: "GET /api/asset/class", request: () => ({ path: "/api/asset/class" }), expect: signedIn(200) },
  {
    route: "POST /api/asset/class",
    request: (w) => ({ method: "POST", path: "/api/asset/class", json: { name: `${w.tag} класс ${crypto.randomUUID()}` } }),
    expect: adminOnly(),
  },
  {
    route: "PATCH /api/asset/class/:id",
    request: async (w) => ({ method: "PATCH", path: `/api/asset/class/${await freshClass(w)}`, json: { def_fields: [] } }),
    expect: adminOnly(),
  },
  {
    route: "DELETE /api/asset/class/:id",
    request: async (w) => ({ method: "DELETE", path: `/api/asset/class/${await freshClass(w)}` }),
    expect: adminOnly(),
  },
  {
    route: "POST /api/asset/class-by-ids",
    request: async (w) => ({ method: "POST", path: "/api/asset/class-by-ids", json: { ids: [await freshClass(w)] } }),
    expect: signedIn(200),
  },

  { route: "GET /api/asset/acl-assets", request: () => ({ path: "/api/asset/acl-assets" }), expect: signedIn(200) },
  { route: "GET /api/asset/preview-size", request: () => ({ path: "/api/asset/preview-size" }), expect: signedIn(200) },
  reads("GET /api/asset/tech-fields/:id/:variantId", (a) => `/api/asset/tech-fields/${a.id}/${a.variantId}`),
  reads("GET /api/asset/variant-tech-fields/:id", (a) => `/api/asset/variant-tech-fields/${a.variantId}`),
  reads("GET /api/asset/variant-tech-props/:id", (a) => `/api/asset/variant-tech-props/${a.variantId}`),
  {
    route: "PATCH /api/asset/variant-tech-props/:id",
    request: async (w, as) => {
      const a = await target(w, as, ["editor", "admin"], true);
      return {
        method: "PATCH",
        path: `/api/asset/variant-tech-props/${a.variantId}`,
        json: { codec: "h264" },
        secrets: [...a.secrets, a.variantId],
      };
    },
    expect: onShared(403, 200),
  },
  reads("GET /api/asset/asset-proxy-doc/:id/:v", (a) => `/api/asset/asset-proxy-doc/${a.id}/1`),
  {
    // The body here is JSON, not an image: callers who may update get past the check to the 400.
    route: "POST /api/asset/upload-preview/:id",
    request: async (w) => {
      const { a, secrets } = await shared(w);
      return { method: "POST", path: `/api/asset/upload-preview/${a.variantId}`, json: { not: "an image" }, secrets };
    },
    expect: onShared(403, 400, 400),
  },
  {
    // Needs download on a and create on b: in S nobody but admins has them.
    route: "POST /api/asset/copy/:a/:b",
    request: async (w) => {
      const { a, secrets } = await shared(w);
      return { method: "POST", path: `/api/asset/copy/${a.id}/${w.shared.id}`, secrets };
    },
    expect: onShared(403, 403),
  },

  {
    route: "POST /api/asset/create",
    request: (w) => ({
      method: "POST",
      path: "/api/asset/create",
      json: { asset_name: `${w.tag} новый.pdf`, asset_mime: "application/pdf", in_group: w.shared.id },
    }),
    expect: onShared(403, 403),
  },
  {
    route: "POST /api/asset/create-list",
    request: (w) => ({
      method: "POST",
      path: "/api/asset/create-list",
      json: { assets: [{ asset_name: `${w.tag} новый.pdf`, asset_mime: "application/pdf", in_group: w.shared.id }] },
    }),
    expect: onShared(403, 403),
  },
  {
    route: "POST /api/asset/delete-list",
    request: async (w, as) => {
      const a = await target(w, as, ["admin"]);
      return { method: "POST", path: "/api/asset/delete-list", json: { ids: [a.id] }, secrets: a.secrets };
    },
    expect: onShared(403, 403),
  },
  {
    route: "POST /api/asset/version/:id",
    request: async (w, as) => {
      const a = await target(w, as);
      return { method: "POST", path: `/api/asset/version/${a.id}`, json: { to_group: w.shared.id }, secrets: a.secrets };
    },
    expect: onShared(403, 200),
  },
  reads("GET /api/asset/versions/:id", (a) => `/api/asset/versions/${a.id}`),
  reads("GET /api/asset/variants/:id/:version", (a) => `/api/asset/variants/${a.id}/1`),
  reads(
    "POST /api/asset/version-by-ids",
    () => "/api/asset/version-by-ids",
    "POST",
    (a) => ({ ids: [a.id] }),
  ),
  {
    route: "POST /api/asset/create-version/:id",
    request: async (w, as) => {
      const a = await target(w, as);
      return { method: "POST", path: `/api/asset/create-version/${a.id}`, json: { desc: "v" }, secrets: a.secrets };
    },
    expect: onShared(403, 200),
  },
  {
    route: "POST /api/asset/drop-empty-version/:id",
    request: async (w, as) => {
      const a = await target(w, as);
      return { method: "POST", path: `/api/asset/drop-empty-version/${a.id}`, secrets: a.secrets };
    },
    expect: onShared(403, 200),
  },
  // The shared asset is also in P: the groups an asset is in are listed only when readable.
  reads("GET /api/asset/member-of/:id", (a) => `/api/asset/member-of/${a.id}`),
  // The info screen's one call: the shared asset is also in P, whose name must not reach a reader of S only.
  reads("GET /api/asset/info/:id", (a) => `/api/asset/info/${a.id}`),
  reads("GET /api/asset/content-size/:id", (a) => `/api/asset/content-size/${a.id}`),
  reads("GET /api/asset/:id", (a) => `/api/asset/${a.id}`),
  {
    route: "PATCH /api/asset/:id",
    request: async (w, as) => {
      const a = await target(w, as);
      return { method: "PATCH", path: `/api/asset/${a.id}`, json: { asset_name: `${a.name} 2` }, secrets: [...a.secrets, `${a.name} 2`] };
    },
    expect: onShared(403, 200),
  },
  {
    route: "DELETE /api/asset/:id",
    request: async (w, as) => {
      const a = await target(w, as, ["admin"]);
      return { method: "DELETE", path: `/api/asset/${a.id}`, secrets: a.secrets };
    },
    expect: onShared(403, 403),
  },

  // Content: the original's bytes need download (admins only here), whether downloaded or played (the
  // shared asset has no proxy, which read would get: tests/api/security-download-right.test.ts); previews need read.
  {
    ...reads("GET /api/asset/content/download/:id/:version/:variant", (a) => `/api/asset/content/download/${a.id}/1/initial`),
    expect: onShared(403, 403),
  },
  {
    ...reads("GET /api/asset/content/download-variant/:id", (a) => `/api/asset/content/download-variant/${a.variantId}`),
    expect: onShared(403, 403),
  },
  { ...reads("POST /api/asset/content/play/:id", (a) => `/api/asset/content/play/${a.id}`, "POST"), expect: onShared(403, 403) },
  {
    ...reads("POST /api/asset/content/play-variant/:id", (a) => `/api/asset/content/play-variant/${a.variantId}`, "POST"),
    expect: onShared(403, 403),
  },
  {
    ...reads("GET /api/asset/content/play-variant/:id", (a) => `/api/asset/content/play-variant/${a.variantId}`),
    expect: onShared(403, 403),
  },
  reads("GET /api/asset/content/preview/:id/:version/:variant", (a) => `/api/asset/content/preview/${a.id}/1/${a.variantId}`),
  reads(
    "POST /api/asset/content/preview-by-list",
    () => "/api/asset/content/preview-by-list",
    "POST",
    (a) => ({ ids: [a.id] }),
  ),
  reads(
    "POST /api/asset/content/preview-by-varlist",
    () => "/api/asset/content/preview-by-varlist",
    "POST",
    (a) => ({ ids: [a.variantId] }),
  ),
];
