import { api } from "../helpers";
import { json } from "../uploads.helpers";
import { freshUpload, partUrl, sharedAsset, target } from "./asset-world";
import { onShared, open, ownedBy, signedIn, type PersonaName, type RouteCase, type World } from "./types";

/**
 * The upload protocol (docs/decisions/007-uploads.md). Starting needs update on the asset; an upload
 * then belongs to its starter (and admins): anyone else gets 404, as for an upload that does not exist.
 * Part PUTs and play links carry a URL signature instead of a bearer: valid for whoever holds them.
 */

/** A part URL whose body is the JSON the matrix sends: a 12-byte upload takes `"xxxxxxxxxx"`. */
const partBody = "x".repeat(10);

/** Part 1 of a 12-byte upload PUT through its Worker URL, as the browser does. */
async function uploadedPart(w: World, as: PersonaName) {
  if (as !== "editor" && as !== "admin") return { ...(await freshUpload(w, as)), etag: '"refused before it matters"' };
  const p = await partUrl(w, as, 12);
  const res = await api(`${p.url.pathname}${p.url.search}`, {
    method: "PUT",
    body: JSON.stringify(partBody),
    headers: { "Content-Type": "application/octet-stream" },
  });
  if (res.status !== 200) throw new Error(`part PUT failed: ${res.status} ${await res.text()}`);
  return { ...p, etag: res.headers.get("ETag")! };
}

/** Only the starter of an upload (the editor here) and admins may see or drive it. */
const starterOnly = ownedBy("editor");

export const uploadCases: RouteCase[] = [
  { route: "GET /api/uldl-list", request: () => ({ path: "/api/uldl-list" }), expect: signedIn(200) },
  {
    route: "POST /api/uldl-status",
    request: () => ({ method: "POST", path: "/api/uldl-status", json: { id: "worker", ping: 12 } }),
    expect: signedIn(200),
  },
  { route: "GET /api/ul/ping", request: () => ({ path: "/api/ul/ping" }), expect: open(200) },
  // Each caller's own unfinished uploads only (the editor's uploads on S's assets never show to others).
  { route: "GET /api/ul", request: () => ({ path: "/api/ul" }), expect: signedIn(200) },
  {
    route: "POST /api/ul/start",
    request: async (w, as) => {
      const a = await target(w, as);
      return {
        method: "POST",
        path: "/api/ul/start",
        json: { asset_id: a.id, size: 10, name: "doc.pdf", mime: "application/pdf", to_group: w.shared.id },
        secrets: a.secrets,
      };
    },
    expect: onShared(403, 200),
  },
  {
    route: "GET /api/ul/:id",
    request: async (w, as) => {
      const { upload, secrets } = await freshUpload(w, as);
      return { path: `/api/ul/${upload.upload_id}`, secrets };
    },
    expect: starterOnly,
  },
  {
    route: "POST /api/ul/:id/targets",
    request: async (w, as) => {
      const { upload, secrets } = await freshUpload(w, as);
      return { method: "POST", path: `/api/ul/${upload.upload_id}/targets`, json: { parts: [1] }, secrets };
    },
    expect: starterOnly,
  },
  {
    route: "POST /api/ul/:id/parts/:n",
    request: async (w, as) => {
      const p = await uploadedPart(w, as);
      return { method: "POST", path: `/api/ul/${p.upload.upload_id}/parts/1`, json: { etag: p.etag }, secrets: p.secrets };
    },
    expect: starterOnly,
  },
  {
    route: "POST /api/ul/:id/complete",
    request: async (w, as) => {
      const p = await uploadedPart(w, as);
      return { method: "POST", path: `/api/ul/${p.upload.upload_id}/complete`, secrets: p.secrets };
    },
    expect: starterOnly,
  },
  {
    route: "DELETE /api/ul/:id",
    request: async (w, as) => {
      const { upload, secrets } = await freshUpload(w, as);
      return { method: "DELETE", path: `/api/ul/${upload.upload_id}`, secrets };
    },
    expect: starterOnly,
  },
  {
    // A signed part URL works for whoever holds it (no bearer is needed or checked); a part may be re-sent.
    route: "PUT /api/ul/:id/part/:n",
    request: async (w) => {
      const p = await partUrl(w, "none", 12);
      return { method: "PUT", path: `${p.url.pathname}${p.url.search}`, json: partBody, secrets: p.secrets };
    },
    expect: open(200),
  },
  {
    // A play link: its signature and the live session it was made for are the authorization, so a <video> needs no headers.
    route: "GET /api/media/:id",
    request: async (w) => {
      const a = await sharedAsset(w);
      const play = await json<{ link: string }>(
        api(`/api/asset/content/play-variant/${a.variantId}`, { method: "POST", bearer: w.adminBearer }),
      );
      const url = new URL(play.link);
      return { path: `${url.pathname}${url.search}` };
    },
    expect: open(200),
  },
];
