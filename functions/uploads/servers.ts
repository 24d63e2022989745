import { z } from "@hono/zod-openapi";
import type { Env } from "../lib/env";
import { WORKER_SERVER_ID, workerServer } from "../lib/upload-server";

/**
 * Upload/download servers (spec 7 and 9, docs/decisions/041-upload-servers.md). This Worker is always one, and the
 * client's fallback; UPLOAD_SERVERS adds others: deployments of this same Worker (same database, bucket and
 * JWT_SECRET) on other hosts, nearer some users. Each speaks the upload protocol under its `url` and answers
 * `{url}/ping`. A server answers the upload routes across origins only to the apps listed in UPLOAD_APP_ORIGINS.
 */

export const configuredServer = z.object({
  id: z.string().trim().min(1).max(100),
  url: z
    .string()
    .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), "не URL")
    .transform((u) => u.replace(/\/+$/, "")),
});
export const configuredServers = z.array(configuredServer).max(20);

export { WORKER_SERVER_ID, workerServer };

function configured(env: Pick<Env, "UPLOAD_SERVERS">) {
  if (!env.UPLOAD_SERVERS?.trim()) return [];
  // The env check refuses API calls while the list is malformed; pages are still answered, with none.
  try {
    const parsed = configuredServers.safeParse(JSON.parse(env.UPLOAD_SERVERS));
    return parsed.success ? parsed.data.filter((s) => s.id !== WORKER_SERVER_ID) : [];
  } catch {
    return [];
  }
}

/** The list the client picks from: this Worker first, then the configured ones. */
export const uploadServers = (env: Pick<Env, "UPLOAD_SERVERS">, requestUrl: string) => [workerServer(requestUrl), ...configured(env)];

/** The origins of the other servers, which the app's pages may connect to (their CSP's connect-src). */
export const uploadServerOrigins = (env: Pick<Env, "UPLOAD_SERVERS">) => configured(env).map((s) => new URL(s.url).origin);

/** Apps (origins) whose pages may send uploads to this Worker from another origin. */
function appOrigins(env: Pick<Env, "UPLOAD_APP_ORIGINS">): string[] {
  return (env.UPLOAD_APP_ORIGINS ?? "")
    .split(",")
    .map((o) => o.trim())
    .filter((o) => URL.canParse(o))
    .map((o) => new URL(o).origin);
}

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
  if (!origin || !isUploadPath(pathname) || !appOrigins(env).includes(origin)) return { preflight: null, headers: null };
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
