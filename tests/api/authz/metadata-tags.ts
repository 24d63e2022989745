import { call } from "../fixtures";
import { sharedAsset, target } from "./asset-world";
import { adminOnly, onShared, signedIn, type RouteCase, type World } from "./types";

/**
 * /api/tags and /api/taxonomy (docs/decisions/032-tags-and-taxonomy.md): everyone signed in reads the
 * vocabularies and adds tags; renaming, deleting and shaping the taxonomy is admins'; putting a tag or
 * a taxon on an object needs update on it (editors on a fresh asset in S; readers 403, the rest 404).
 */

let n = 0;
const fresh = (label: string) => `${label} ${++n}-${crypto.randomUUID().slice(0, 8)}`;

const adminTag = async (w: World) => {
  const r = await call("/api/tags/create", { method: "POST", json: { tag_name: fresh("Матрица-тег") }, bearer: w.adminBearer });
  if (r.status !== 200) throw new Error(`tag create failed: ${r.text}`);
  return r.body.tag_id as string;
};
const adminTaxon = async (w: World) => {
  const r = await call("/api/taxonomy/create", { method: "POST", json: { path: fresh("Матрица-раздел") }, bearer: w.adminBearer });
  if (r.status !== 200) throw new Error(`taxon create failed: ${r.text}`);
  return r.body.taxon_id as string;
};

/** A taxon holding the shared asset (which lies in S and P): its listing must hide it from those who cannot read S. */
const filedTaxons = new WeakMap<World, Promise<{ id: string; secrets: string[] }>>();
const filedTaxon = (w: World) => {
  let t = filedTaxons.get(w);
  if (!t) {
    t = (async () => {
      const [id, a] = await Promise.all([adminTaxon(w), sharedAsset(w)]);
      await call(`/api/taxonomy/add-member/${id}`, { method: "POST", json: { objectId: a.id }, bearer: w.adminBearer });
      return { id, secrets: [a.name, a.id] };
    })();
    filedTaxons.set(w, t);
  }
  return t;
};

const link = (route: string, path: string): RouteCase => ({
  route,
  request: async (w, as) => {
    const a = await target(w, as);
    return { method: "POST", path, json: { tag_ids: [await adminTag(w)], entities: [{ id: a.id, type: "asset" }] }, secrets: a.secrets };
  },
  expect: onShared(403, 200),
});

const member = (route: string, verb: string): RouteCase => ({
  route,
  request: async (w, as) => {
    const a = await target(w, as);
    return { method: "POST", path: `/api/taxonomy/${verb}/${await adminTaxon(w)}`, json: { objectId: a.id }, secrets: a.secrets };
  },
  expect: onShared(403, 200),
});

export const metadataTagCases: RouteCase[] = [
  { route: "GET /api/tags/list", request: () => ({ path: "/api/tags/list" }), expect: signedIn(200) },
  {
    route: "POST /api/tags/list-by-ids",
    request: async (w) => ({ method: "POST", path: "/api/tags/list-by-ids", json: { ids: [await adminTag(w)] } }),
    expect: signedIn(200),
  },
  {
    route: "POST /api/tags/list-by-filter",
    request: () => ({ method: "POST", path: "/api/tags/list-by-filter", json: { q: "матрица", skip: 0, take: 10 } }),
    expect: signedIn(200),
  },
  {
    route: "POST /api/tags/create",
    request: () => ({ method: "POST", path: "/api/tags/create", json: { tag_name: fresh("Матрица-новый") } }),
    expect: signedIn(200),
  },
  {
    route: "PATCH /api/tags/change/:id",
    request: async (w) => ({ method: "PATCH", path: `/api/tags/change/${await adminTag(w)}`, json: { tag_name: fresh("Матрица-имя") } }),
    expect: adminOnly(),
  },
  {
    route: "DELETE /api/tags/delete/:id",
    request: async (w) => ({ method: "DELETE", path: `/api/tags/delete/${await adminTag(w)}` }),
    expect: adminOnly(),
  },
  link("POST /api/tags/attach", "/api/tags/attach"),
  link("POST /api/tags/detach", "/api/tags/detach"),

  { route: "GET /api/taxonomy/tree", request: () => ({ path: "/api/taxonomy/tree" }), expect: signedIn(200) },
  {
    route: "POST /api/taxonomy/create",
    request: () => ({ method: "POST", path: "/api/taxonomy/create", json: { path: `${fresh("Матрица-путь")}/Лист` } }),
    expect: adminOnly(),
  },
  {
    route: "PATCH /api/taxonomy/change/:id",
    request: async (w) => ({ method: "PATCH", path: `/api/taxonomy/change/${await adminTaxon(w)}`, json: { name: fresh("Матрица-имя") } }),
    expect: adminOnly(),
  },
  {
    route: "DELETE /api/taxonomy/delete/:id",
    request: async (w) => ({ method: "DELETE", path: `/api/taxonomy/delete/${await adminTaxon(w)}` }),
    expect: adminOnly(),
  },
  member("POST /api/taxonomy/add-member/:id", "add-member"),
  member("POST /api/taxonomy/del-member/:id", "del-member"),
  {
    route: "GET /api/taxonomy/list-members/:id",
    request: async (w) => {
      const t = await filedTaxon(w);
      return { path: `/api/taxonomy/list-members/${t.id}?descendants=true`, secrets: t.secrets };
    },
    expect: signedIn(200),
  },
  {
    route: "GET /api/taxonomy/for-entity/:id",
    request: async (w) => {
      const a = await sharedAsset(w);
      await filedTaxon(w);
      return { path: `/api/taxonomy/for-entity/${a.id}`, secrets: [a.name, a.id] };
    },
    expect: onShared(200, 200),
  },
];
