import { api } from "../helpers";
import { createAsset, uploadFile } from "../uploads.helpers";
import { onShared, open, type RouteCase, type World } from "./types";

/**
 * /api/sl. The sharer's routes act on an asset in S: creating and editing need acl (only admins have it
 * here), listing needs read. The recipient's routes are open: the link decides, the same for everyone.
 */

const assets = new WeakMap<World, Promise<string>>();
/** One asset with content and a proxy (what a link's player shows) in S per world, made by the admin. */
const assetOf = (w: World) => {
  let p = assets.get(w);
  if (!p) {
    p = (async () => {
      const { asset_id } = await createAsset(w.adminBearer, { in_group: w.shared.id, asset_name: "матрица.txt", asset_mime: "text/plain" });
      await uploadFile(w.adminBearer, asset_id, new TextEncoder().encode("matrix"), { name: "матрица.txt", mime: "text/plain" });
      await uploadFile(w.adminBearer, asset_id, new TextEncoder().encode("proxy"), {
        name: "матрица-прокси.txt",
        mime: "text/plain",
        version: 1,
        variant_type: "proxy_lowres",
      });
      return asset_id;
    })();
    assets.set(w, p);
  }
  return p;
};

const linkOf = async (w: World, body: Record<string, unknown> = {}) => {
  const res = await api(`/api/sl/create/${await assetOf(w)}`, {
    method: "POST",
    json: { acl: ["view", "download_original"], ...body },
    bearer: w.adminBearer,
  });
  if (res.status !== 200) throw new Error(`link: ${res.status} ${await res.text()}`);
  return res.text();
};

/** One link per world and kind, so eight personas cost one creation (a password one costs a scrypt hash). */
const shared = new WeakMap<World, Map<string, Promise<string>>>();
const sharedLink = (w: World, password?: string) => {
  const byKind = shared.get(w) ?? new Map<string, Promise<string>>();
  shared.set(w, byKind);
  let p = byKind.get(password ?? "");
  if (!p) byKind.set(password ?? "", (p = linkOf(w, password ? { password } : {})));
  return p;
};

export const shareLinkCases: RouteCase[] = [
  {
    route: "POST /api/sl/create/:id",
    request: async (w) => ({ method: "POST", path: `/api/sl/create/${await assetOf(w)}`, json: { acl: ["view"] } }),
    expect: onShared(403, 403),
  },
  {
    route: "GET /api/sl/for-entity/:id",
    request: async (w) => ({ path: `/api/sl/for-entity/${await assetOf(w)}` }),
    expect: onShared(200, 200),
  },
  {
    route: "PATCH /api/sl/:id",
    request: async (w) => ({ method: "PATCH", path: `/api/sl/${await sharedLink(w)}`, json: { download_limit: 50 } }),
    expect: onShared(403, 403),
  },
  {
    route: "DELETE /api/sl/:id",
    request: async (w) => ({ method: "DELETE", path: `/api/sl/${await linkOf(w)}` }),
    expect: onShared(403, 403),
  },
  { route: "GET /api/sl/info/:id", request: async (w) => ({ path: `/api/sl/info/${await sharedLink(w)}` }), expect: open(200) },
  {
    route: "POST /api/sl/info/:id",
    request: async (w) => ({
      method: "POST",
      path: `/api/sl/info/${await sharedLink(w, "пароль-матрицы")}`,
      json: { password: "пароль-матрицы" },
    }),
    expect: open(200),
  },
  {
    route: "GET /api/sl/:id/download/:which",
    request: async (w) => ({ path: `/api/sl/${await sharedLink(w)}/download/original` }),
    expect: open(200),
  },
  { route: "GET /api/sl/:id/play", request: async (w) => ({ path: `/api/sl/${await sharedLink(w)}/play` }), expect: open(200) },
  // No preview image was stored for the asset: the same 404 for everyone.
  { route: "GET /api/sl/:id/preview", request: async (w) => ({ path: `/api/sl/${await sharedLink(w)}/preview` }), expect: open(404) },
];
