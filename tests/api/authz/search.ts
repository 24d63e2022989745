import { signedIn, type RouteCase } from "./types";

/**
 * /api/search (docs/decisions/045-search.md): everyone signed in searches, and every answer lists only what the
 * caller can read — a search for the world's own word must name no group a persona cannot read (the matrix's
 * leak check). Semantic search answers 503 here: no embeddings endpoint is configured in the suite.
 */
export const searchCases: RouteCase[] = [
  {
    route: "POST /api/search/query",
    request: (w) => ({ method: "POST", path: "/api/search/query", json: { q: w.tag, take: 100 } }),
    expect: signedIn(200),
  },
  {
    route: "GET /api/search/autocomplete",
    request: (w) => ({ path: `/api/search/autocomplete?q=${encodeURIComponent(w.tag)}&take=20` }),
    expect: signedIn(200),
  },
  {
    route: "POST /api/search/vector",
    request: (w) => ({ method: "POST", path: "/api/search/vector", json: { q: w.tag } }),
    expect: signedIn(503),
  },
  {
    route: "POST /api/search/rag",
    request: (w) => ({ method: "POST", path: "/api/search/rag", json: { question: w.tag } }),
    expect: signedIn(200),
  },
];
