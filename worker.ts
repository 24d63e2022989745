import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
// The Remix server build (npx remix vite:build); static assets in build/client are served before the Worker.
import * as remixBuild from "./build/server/index.js";
import { refusedOnMediaOrigin } from "./functions/assets/play-links";
import { handleDav, isDavPath } from "./functions/dav";
import { api } from "./functions/index";
import type { Env } from "./functions/lib/env";
import { mediaOrigin, newNonce, secureResponse } from "./functions/lib/security-headers";
import { uploadCors, uploadServerOrigins } from "./functions/uploads/servers";
import { cachedSharePage, sharePageId } from "./functions/sl/page-cache";
import { housekeeping } from "./functions/system/housekeeping";
import { handleQueue } from "./queues/index";
import type { JobMessage } from "./queues/messages";

const remix = createRequestHandler(remixBuild as unknown as ServerBuild);

async function route(request: Request, env: Env, ctx: ExecutionContext, cspNonce: string): Promise<Response> {
  const refused = refusedOnMediaOrigin(request, env);
  if (refused) return refused;
  const { pathname } = new URL(request.url);
  if (pathname === "/api" || pathname.startsWith("/api/")) {
    // Another app's page uploading here (functions/uploads/servers.ts): its preflight, then the allow headers.
    const cors = uploadCors(request, env);
    if (cors.preflight) return cors.preflight;
    const response = await api.fetch(request, env, ctx);
    if (!cors.headers) return response;
    const allowed = new Response(response.body, response);
    cors.headers.forEach((value, name) => {
      allowed.headers.set(name, value);
    });
    return allowed;
  }
  if (isDavPath(pathname)) return handleDav(request, env);
  const render = () => remix(request, { cloudflare: { env, ctx }, cspNonce });
  const linkId = sharePageId(request);
  return linkId ? cachedSharePage(request, linkId, env, ctx, render) : render();
}

export default {
  // Every answer, API and pages, gets the security headers (functions/lib/security-headers.ts).
  async fetch(request, env, ctx) {
    const nonce = newNonce();
    return secureResponse(request, await route(request, env, ctx, nonce), nonce, mediaOrigin(env), uploadServerOrigins(env));
  },
  queue: (batch, env) => handleQueue(batch, env),
  scheduled: (_controller, env, ctx) => ctx.waitUntil(housekeeping(env)),
} satisfies ExportedHandler<Env, JobMessage>;
