import { api } from "../helpers";
import { sharedAsset } from "./asset-world";
import { open, type RouteCase, type World } from "./types";

/**
 * /api/review/guest/{link_id} (docs/decisions/061-review-and-approval.md, "External reviewers"): open routes, the
 * review link and its guest session decide, the same for every persona (a bearer adds nothing). Without a name given
 * in the link's session, writing is refused (403); reading the round is not. Attacks: tests/api/review-guest*.test.ts.
 */

const links = new WeakMap<World, Promise<string>>();
/** One review link per world, for an address that is nobody's login, made by the admin on the shared asset. */
const reviewLink = (w: World) => {
  let p = links.get(w);
  if (!p) {
    p = (async () => {
      const a = await sharedAsset(w);
      const res = await api("/api/review/requests", {
        method: "POST",
        json: { asset_id: a.id, reviewers: [`matrix-${crypto.randomUUID()}@outside.example`] },
        bearer: w.adminBearer,
      });
      const body = (await res.json()) as { links: { url: string }[] };
      if (res.status !== 200 || !body.links[0]) throw new Error(`review link: ${res.status} ${JSON.stringify(body)}`);
      return body.links[0].url.split("/").pop()!;
    })();
    links.set(w, p);
  }
  return p;
};
const someComment = "00000000-0000-4000-8000-000000000000";

export const reviewGuestCases: RouteCase[] = [
  {
    route: "GET /api/review/guest/:link_id",
    request: async (w) => ({ path: `/api/review/guest/${await reviewLink(w)}` }),
    expect: open(200),
  },
  {
    route: "POST /api/review/guest/:link_id/session",
    request: async (w) => ({ method: "POST", path: `/api/review/guest/${await reviewLink(w)}/session`, json: { name: "Гость" } }),
    expect: open(200),
  },
  {
    // The request did not ask to confirm the address: there is no code to mail.
    route: "POST /api/review/guest/:link_id/code",
    request: async (w) => ({ method: "POST", path: `/api/review/guest/${await reviewLink(w)}/code` }),
    expect: open(400),
  },
  {
    route: "POST /api/review/guest/:link_id/confirm",
    request: async (w) => ({ method: "POST", path: `/api/review/guest/${await reviewLink(w)}/confirm`, json: { code: "123456" } }),
    expect: open(400),
  },
  {
    route: "GET /api/review/guest/:link_id/comments",
    request: async (w) => ({ path: `/api/review/guest/${await reviewLink(w)}/comments` }),
    expect: open(200),
  },
  {
    route: "POST /api/review/guest/:link_id/comments",
    request: async (w) => ({ method: "POST", path: `/api/review/guest/${await reviewLink(w)}/comments`, json: { body: "без имени" } }),
    expect: open(403),
  },
  {
    route: "PATCH /api/review/guest/:link_id/comments/:id",
    request: async (w) => ({
      method: "PATCH",
      path: `/api/review/guest/${await reviewLink(w)}/comments/${someComment}`,
      json: { resolved: true },
    }),
    expect: open(403),
  },
  {
    route: "DELETE /api/review/guest/:link_id/comments/:id",
    request: async (w) => ({ method: "DELETE", path: `/api/review/guest/${await reviewLink(w)}/comments/${someComment}` }),
    expect: open(403),
  },
  {
    route: "POST /api/review/guest/:link_id/approval",
    request: async (w) => ({ method: "POST", path: `/api/review/guest/${await reviewLink(w)}/approval`, json: { status: "approved" } }),
    expect: open(403),
  },
  {
    // Watching needs no name: the link (past its password) is enough for a ticket to the live room.
    route: "POST /api/review/guest/:link_id/live-ticket",
    request: async (w) => ({ method: "POST", path: `/api/review/guest/${await reviewLink(w)}/live-ticket` }),
    expect: open(200),
  },
];
