import { call } from "../fixtures";
import { freshAsset, sharedAsset, target } from "./asset-world";
import { adminOnly, onShared, signedIn, type PersonaName, type RouteCase, type World } from "./types";

/**
 * /api/fields and /api/lists. Templates and lists: everyone signed in reads them, admins change them.
 * Values: read on the entity to see them, update to change them (readers get 403 on S, those who
 * cannot read S 404). entities-by-field answers everyone, but only entities the caller can read.
 */

const templates = new WeakMap<World, Promise<string>>();
/** One text template per world, for the value calls. */
const worldTemplate = (w: World) => {
  let t = templates.get(w);
  if (!t) templates.set(w, (t = freshTemplate(w)));
  return t;
};

async function freshTemplate(w: World) {
  const r = await call("/api/fields/templates", {
    method: "POST",
    json: { field_def_name: `${w.tag} поле ${crypto.randomUUID()}`, field_type: "text" },
    bearer: w.adminBearer,
  });
  return r.body.field_def_id as string;
}

async function freshList(w: World) {
  const r = await call("/api/lists", {
    method: "POST",
    json: { list_name: `${w.tag} список ${crypto.randomUUID()}` },
    bearer: w.adminBearer,
  });
  const rec = await call(`/api/lists/records/${r.body.list_id}`, { method: "POST", json: { rec_data: "запись" }, bearer: w.adminBearer });
  return { listId: r.body.list_id as string, recId: rec.body.rec_id as string };
}

async function valueOn(w: World, assetId: string) {
  const r = await call("/api/fields/create", {
    method: "POST",
    json: { entity_id: assetId, entity_type: "asset", def_id: await worldTemplate(w), field_data: w.tag },
    bearer: w.adminBearer,
  });
  return r.body.field_id as string;
}

/** A value the persona acts on: on a fresh asset for editors and admins, on the shared asset for everyone else. */
async function targetValue(w: World, as: PersonaName) {
  const a = await target(w, as);
  return { id: await valueOn(w, a.id), secrets: a.secrets };
}

const valueBody = async (w: World, as: PersonaName) => {
  const a = await target(w, as);
  return {
    body: { entity_id: a.id, entity_type: "asset", def_id: await worldTemplate(w), field_data: "значение" },
    secrets: a.secrets,
  };
};

export const fieldCases: RouteCase[] = [
  { route: "GET /api/fields/templates", request: () => ({ path: "/api/fields/templates" }), expect: signedIn(200) },
  {
    route: "POST /api/fields/templates",
    request: (w) => ({ method: "POST", path: "/api/fields/templates", json: { field_def_name: `${w.tag} поле`, field_type: "bool" } }),
    expect: adminOnly(),
  },
  {
    route: "GET /api/fields/templates/:id",
    request: async (w) => ({ path: `/api/fields/templates/${await worldTemplate(w)}` }),
    expect: signedIn(200),
  },
  {
    route: "PATCH /api/fields/templates/:id",
    request: async (w) => ({ method: "PATCH", path: `/api/fields/templates/${await freshTemplate(w)}`, json: { field_priority: 2 } }),
    expect: adminOnly(),
  },
  {
    route: "DELETE /api/fields/templates/:id",
    request: async (w) => ({ method: "DELETE", path: `/api/fields/templates/${await freshTemplate(w)}` }),
    expect: adminOnly(),
  },
  {
    route: "GET /api/fields/for-entity/:id",
    request: async (w) => {
      const a = await sharedAsset(w);
      return { path: `/api/fields/for-entity/${a.id}`, secrets: [a.name, a.id] };
    },
    expect: onShared(200, 200),
  },
  {
    route: "GET /api/fields/export-csv/:id",
    request: async (w) => {
      const a = await sharedAsset(w);
      await valueOn(w, a.id);
      return { path: `/api/fields/export-csv/${w.shared.id}`, secrets: [a.name, a.id] };
    },
    expect: onShared(200, 200),
  },
  {
    // A dry run reports to anyone who can read the group; writing needs update on each row's asset (a row error).
    route: "POST /api/fields/import-csv/:id",
    request: async (w) => {
      const a = await sharedAsset(w);
      return {
        method: "POST",
        path: `/api/fields/import-csv/${w.shared.id}`,
        json: { csv: `asset_id,name\n${a.id},${a.name}\n` },
        secrets: [a.name, a.id],
      };
    },
    expect: onShared(200, 200),
  },
  {
    route: "POST /api/fields/create",
    request: async (w, as) => {
      const { body, secrets } = await valueBody(w, as);
      return { method: "POST", path: "/api/fields/create", json: body, secrets };
    },
    expect: onShared(403, 200),
  },
  {
    route: "POST /api/fields/create-list",
    request: async (w, as) => {
      const { body, secrets } = await valueBody(w, as);
      return { method: "POST", path: "/api/fields/create-list", json: { values: [body, body] }, secrets };
    },
    expect: onShared(403, 200),
  },
  {
    route: "PATCH /api/fields/change/:id",
    request: async (w, as) => {
      const v = await targetValue(w, as);
      return { method: "PATCH", path: `/api/fields/change/${v.id}`, json: { field_data: "другое" }, secrets: v.secrets };
    },
    expect: onShared(403, 200),
  },
  {
    route: "DELETE /api/fields/delete/:id",
    request: async (w, as) => {
      const v = await targetValue(w, as);
      return { method: "DELETE", path: `/api/fields/delete/${v.id}`, secrets: v.secrets };
    },
    expect: onShared(403, 200),
  },
  {
    route: "POST /api/fields/entities-by-field",
    request: async (w) => {
      const a = await sharedAsset(w);
      const def = await worldTemplate(w);
      await valueOn(w, a.id);
      await valueOn(w, (await freshAsset(w)).id);
      return { method: "POST", path: "/api/fields/entities-by-field", json: { def_id: def, op: "exists" }, secrets: [a.name, a.id] };
    },
    expect: signedIn(200),
  },

  { route: "GET /api/lists", request: () => ({ path: "/api/lists" }), expect: signedIn(200) },
  {
    route: "POST /api/lists",
    request: (w) => ({ method: "POST", path: "/api/lists", json: { list_name: `${w.tag} список ${crypto.randomUUID()}` } }),
    expect: adminOnly(),
  },
  {
    route: "PATCH /api/lists/:list_id",
    request: async (w) => ({
      method: "PATCH",
      path: `/api/lists/${(await freshList(w)).listId}`,
      json: { list_name: `${w.tag} список ${crypto.randomUUID()}` },
    }),
    expect: adminOnly(),
  },
  {
    route: "DELETE /api/lists/:list_id",
    request: async (w) => ({ method: "DELETE", path: `/api/lists/${(await freshList(w)).listId}` }),
    expect: adminOnly(),
  },
  {
    route: "GET /api/lists/records/:list_id",
    request: async (w) => ({ path: `/api/lists/records/${(await freshList(w)).listId}` }),
    expect: signedIn(200),
  },
  {
    route: "POST /api/lists/records/:list_id",
    request: async (w) => ({ method: "POST", path: `/api/lists/records/${(await freshList(w)).listId}`, json: { rec_data: "ещё" } }),
    expect: adminOnly(),
  },
  {
    route: "PATCH /api/lists/records/:list_id/:rec_id",
    request: async (w) => {
      const l = await freshList(w);
      return { method: "PATCH", path: `/api/lists/records/${l.listId}/${l.recId}`, json: { rec_data: "иначе" } };
    },
    expect: adminOnly(),
  },
  {
    route: "DELETE /api/lists/records/:list_id/:rec_id",
    request: async (w) => {
      const l = await freshList(w);
      return { method: "DELETE", path: `/api/lists/records/${l.listId}/${l.recId}` };
    },
    expect: adminOnly(),
  },
];
