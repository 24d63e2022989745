import { configOf } from "../lib/config";
import type { Env } from "../lib/env";
import { WORKER_SERVER_ID, workerServer } from "../../shared/lib/upload-server";

/**
 * Upload/download servers (spec 7 and 9, docs/decisions/041-upload-servers.md). This Worker is always one, and the
 * client's fallback; UPLOAD_SERVERS adds others: deployments of this same Worker (same database, bucket and
 * JWT_SECRET) on other hosts, nearer some users. Each speaks the upload protocol under its `url` and answers
 * `{url}/ping`. A server answers the upload routes across origins only to the apps listed in UPLOAD_APP_ORIGINS.
 * Both lists are parsed with the other variables (functions/lib/config.ts); while UPLOAD_SERVERS is malformed the
 * env check refuses API calls, and pages are answered with no other server.
 */

export { WORKER_SERVER_ID, workerServer };

/** The list the client picks from: this Worker first, then the configured ones. */
export const uploadServers = (env: Pick<Env, "UPLOAD_SERVERS">, requestUrl: string) => [
  workerServer(requestUrl),
  ...configOf(env).UPLOAD_SERVERS,
];

/** The origins of the other servers, which the app's pages may connect to (their CSP's connect-src). */
export const uploadServerOrigins = (env: Pick<Env, "UPLOAD_SERVERS">) => configOf(env).UPLOAD_SERVERS.map((s) => new URL(s.url).origin);

const isUploadPath = (path: string) => path === "/api/ul" || path.startsWith("/api/ul/");

/**
 * CORS for the upload routes when an allowed app calls from another origin: the preflight is answered here, and
 * other answers get the allow headers added. Everything else stays same-origin only.
 */
export function uploadCors(
  request: Request,
  env: Pick<Env, "UPLOAD_APP_ORIGINS">,
): { preflight: Response | null; headers: Headers | null } {
  const origin = request.headers.get("Origin");
  const { pathname } = new URL(request.url);
  if (!origin || !isUploadPath(pathname) || !configOf(env).UPLOAD_APP_ORIGINS.includes(origin)) return { preflight: null, headers: null };
  const headers = new Headers({
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Expose-Headers": "ETag",
    Vary: "Origin",
  });
  if (request.method !== "OPTIONS") return { preflight: null, headers };
  headers.set("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE");
  headers.set("Access-Control-Allow-Headers", "Authorization, Content-Type");
  headers.set("Access-Control-Max-Age", "600");
  return { preflight: new Response(null, { status: 204, headers }), headers: null };
}
