import { call } from "../fixtures";
import { sharedAsset } from "./asset-world";
import { onShared, type RouteCase, signedIn, type World } from "./types";

/**
 * /api/review (docs/decisions/061-review-and-approval.md): read on the asset to comment and read, update to resolve
 * others' comments, ask for approval or decide unasked; deleting a comment is its author's or an admin's.
 */

/** A fresh comment by the admin on the shared asset (each persona acts on its own). */
async function adminComment(w: World) {
  const a = await sharedAsset(w);
  const r = await call("/api/review/comments", {
    method: "POST",
    json: { asset_id: a.id, body: "к странице", page: 1 },
    bearer: w.adminBearer,
  });
  if (r.status !== 200) throw new Error(`comment failed: ${r.text}`);
  return { id: r.body.comment_id as string, secrets: [a.name, a.id] };
}

export const reviewCases: RouteCase[] = [
  {
    route: "POST /api/review/comments",
    request: async (w) => {
      const a = await sharedAsset(w);
      return {
        method: "POST",
        path: "/api/review/comments",
        json: { asset_id: a.id, body: "замечание", page: 1 },
        secrets: [a.name, a.id],
      };
    },
    expect: onShared(200, 200),
  },
  {
    route: "GET /api/review/comments",
    request: async (w) => {
      const c = await adminComment(w);
      const a = await sharedAsset(w);
      return { path: `/api/review/comments?asset_id=${a.id}`, secrets: [...c.secrets, c.id] };
    },
    expect: onShared(200, 200),
  },
  {
    // Others' comments: resolved by those with update on the asset.
    route: "PATCH /api/review/comments/:id",
    request: async (w) => {
      const c = await adminComment(w);
      return { method: "PATCH", path: `/api/review/comments/${c.id}`, json: { resolved: true }, secrets: c.secrets };
    },
    expect: onShared(403, 200),
  },
  {
    route: "DELETE /api/review/comments/:id",
    request: async (w) => {
      const c = await adminComment(w);
      return { method: "DELETE", path: `/api/review/comments/${c.id}`, secrets: c.secrets };
    },
    expect: onShared(403, 403),
  },
  {
    route: "POST /api/review/requests",
    request: async (w) => {
      const a = await sharedAsset(w);
      return {
        method: "POST",
        path: "/api/review/requests",
        json: { asset_id: a.id, reviewers: [w.users.admin.id] },
        secrets: [a.name, a.id],
      };
    },
    expect: onShared(403, 200),
  },
  {
    // Those who may request review (update) see whom they may ask; a reader is refused, an outsider sees no file.
    route: "GET /api/review/reviewers/:asset_id",
    request: async (w) => {
      const a = await sharedAsset(w);
      return { path: `/api/review/reviewers/${a.id}`, secrets: [a.name, a.id] };
    },
    expect: onShared(403, 200),
  },
  {
    // Unasked: only those with update decide.
    route: "POST /api/review/approval/:asset_id",
    request: async (w) => {
      const a = await sharedAsset(w);
      return { method: "POST", path: `/api/review/approval/${a.id}`, json: { status: "approved" }, secrets: [a.name, a.id] };
    },
    expect: onShared(403, 200),
  },
  {
    route: "GET /api/review/approval/:asset_id",
    request: async (w) => {
      const a = await sharedAsset(w);
      return { path: `/api/review/approval/${a.id}`, secrets: [a.name, a.id] };
    },
    expect: onShared(200, 200),
  },
  {
    route: "POST /api/review/live-ticket/:asset_id",
    request: async (w) => {
      const a = await sharedAsset(w);
      return { method: "POST", path: `/api/review/live-ticket/${a.id}`, secrets: [a.name, a.id] };
    },
    expect: onShared(200, 200),
  },
  {
    // The ticket is the credential (the bearer is ignored): each persona brings the one it could get, if any. Without
    // an Upgrade header a valid ticket gets 426, so a 426 here means the ticket let the caller in.
    route: "GET /api/review/live/:asset_id",
    request: async (w, as) => {
      const a = await sharedAsset(w);
      const bearer = as === "anonymous" ? undefined : (w.users[as].bearer ?? undefined);
      const t = await call(`/api/review/live-ticket/${a.id}`, { method: "POST", bearer });
      const ticket = t.status === 200 ? `?ticket=${encodeURIComponent(t.body.ticket)}` : "";
      return { path: `/api/review/live/${a.id}${ticket}`, secrets: [a.name] };
    },
    expect: { ...onShared(426, 426, 426), anonymous: 401, disabled: 401, none: 401, chrooted: 401 },
  },
  {
    route: "GET /api/review/export/:asset_id",
    request: async (w) => {
      await adminComment(w);
      const a = await sharedAsset(w);
      return { path: `/api/review/export/${a.id}?format=csv`, secrets: [a.name, a.id] };
    },
    expect: onShared(200, 200),
  },
  {
    // Everyone's own inbox only: an admin's comment on the shared asset never shows in another's.
    route: "GET /api/review/inbox",
    request: async (w) => {
      const c = await adminComment(w);
      return { path: "/api/review/inbox?take=100", secrets: [...c.secrets, c.id] };
    },
    expect: signedIn(200),
  },
  {
    route: "POST /api/review/inbox/read",
    request: () => ({ method: "POST", path: "/api/review/inbox/read", json: { all: true } }),
    expect: signedIn(200),
  },
];
