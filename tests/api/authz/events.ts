import { adminOnly, signedIn, type RouteCase } from "./types";

/**
 * /api/global-events (docs/decisions/043-events-list.md): everyone signed in reads the list, filtered to what
 * they can read: the newest page, which holds the world's own group events, must show no name or id of a group a
 * persona cannot read (the matrix's leak check), and asking for a hidden group's events answers an empty page.
 */
export const eventCases: RouteCase[] = [
  {
    route: "POST /api/global-events/list",
    request: (w, as) => ({
      method: "POST",
      path: "/api/global-events/list",
      json: as === "reader" || as === "editor" ? { entity: { id: w.priv.id }, take: 200 } : { take: 200 },
    }),
    expect: signedIn(200),
  },
  {
    route: "GET /api/global-events/export",
    request: () => ({ path: `/api/global-events/export?format=ndjson&from=0&to=${Math.floor(Date.now() / 1000)}` }),
    expect: adminOnly(200),
  },
];
