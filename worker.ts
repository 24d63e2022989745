import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
// The Remix server build (npx remix vite:build); static assets in build/client are served before the Worker.
import * as remixBuild from "./build/server/index.js";
import { refusedOnMediaOrigin } from "./functions/assets/play-links";
import { api } from "./functions/index";
import type { Env } from "./functions/lib/env";
import { cachedSharePage, sharePageId } from "./functions/sl/page-cache";
import { housekeeping } from "./functions/system/housekeeping";
import { handleQueue } from "./queues/index";
import type { JobMessage } from "./queues/messages";

const remix = createRequestHandler(remixBuild as unknown as ServerBuild);

export default {
  fetch(request, env, ctx) {
    const refused = refusedOnMediaOrigin(request, env);
    if (refused) return refused;
    const { pathname } = new URL(request.url);
    if (pathname === "/api" || pathname.startsWith("/api/")) return api.fetch(request, env, ctx);
    const render = () => remix(request, { cloudflare: { env, ctx } });
    const linkId = sharePageId(request);
    return linkId ? cachedSharePage(request, linkId, env, ctx, render) : render();
  },
  queue: (batch, env) => handleQueue(batch, env),
  scheduled: (_controller, env, ctx) => ctx.waitUntil(housekeeping(env)),
} satisfies ExportedHandler<Env, JobMessage>;
