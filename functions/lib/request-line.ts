/**
 * The one structured log line per API request (docs/decisions/044-metrics-logs-errors.md). It is built from named
 * fields only — the route pattern, never the path or its query string, and never a header — so a token, a password
 * or a share-link id has no way into it. No server imports: unit-tested in Node.
 */

export interface RequestFacts {
  requestId: string;
  method: string;
  /** The matched route pattern (/api/sl/:id), or null when no route matched. */
  route: string | null;
  status: number;
  durationMs: number;
  userId?: string | null;
}

/** Label for requests that matched no route: their raw path could carry anything. */
export const UNMATCHED = "unmatched";

export function requestLine(f: RequestFacts): string {
  return JSON.stringify({
    type: "request",
    request_id: f.requestId,
    method: f.method,
    route: f.route ?? UNMATCHED,
    status: f.status,
    duration_ms: Math.round(f.durationMs * 10) / 10,
    user_id: f.userId ?? null,
  });
}
