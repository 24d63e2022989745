import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
import { refusedOnMediaOrigin } from "./functions/assets/play-links";
import { handleDav, isDavPath } from "./functions/dav";
import { drainBody } from "./functions/lib/bodies";
import { api } from "./functions/index";
import type { Env } from "./functions/lib/env";
import { reportingOrigin, sentryOptions, setErrorReporter } from "./functions/lib/error-reporting";
import { mediaOrigin, newNonce, officeOrigin, secureResponse } from "./functions/middleware/security-headers";
import { uploadCors, uploadServerOrigins } from "./functions/uploads/servers";
import { cachedSharedAnswer, sharedAnswerOf } from "./functions/sl/page-cache";
import { readingEnv } from "./functions/lib/db-session";
import { housekeeping } from "./functions/system/housekeeping";
import { handleQueue } from "./queues/index";
import type { JobMessage } from "./queues/messages";

// The live review room, a Durable Object class wrangler.toml binds as REVIEW_ROOM: exported from the Worker's entry.
export { ReviewRoom } from "./functions/review/live-room";

// The Remix server build (npx remix vite:build); static assets in build/client are served before the Worker.
// Loaded on the first page request: an API request, a queue batch or a cron never pays for its 2 MB.
const remixBuild = () => import("./build/server/index.js");
let pages: ReturnType<typeof createRequestHandler> | undefined;
const remix: ReturnType<typeof createRequestHandler> = async (request, context) => {
  pages ??= createRequestHandler((await remixBuild()) as unknown as ServerBuild);
  return pages(request, context);
};

async function route(request: Request, env: Env, ctx: ExecutionContext, cspNonce: string): Promise<Response> {
  const refused = refusedOnMediaOrigin(request, env);
  if (refused) return refused;
  const { pathname } = new URL(request.url);
  // A public share page or its info answer: from the edge cache when the link's version is there (page-cache.ts).
  const shared = sharedAnswerOf(request);
  if (shared) {
    // They only read (a view count aside, which D1 sends to the primary): any copy of the database will do.
    const readEnv = readingEnv(env);
    // The info answer is the API's (its own session starts unconstrained, functions/lib/db-session.ts).
    const render = async () =>
      shared.kind === "info" ? api.fetch(request, env, ctx) : remix(request, { cloudflare: { env: readEnv, ctx }, cspNonce });
    return cachedSharedAnswer(request, shared, readEnv, ctx, render);
  }
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
  return remix(request, { cloudflare: { env, ctx }, cspNonce });
}

/** The build id (app/entry.server.tsx), the release errors are reported under: read with the build, when reporting is on. */
let release = "unknown";
let releaseRead: Promise<void> | undefined;
const readRelease = () =>
  (releaseRead ??= remixBuild().then((build) => {
    release = (build.entry.module as { BUILD_ID?: string }).BUILD_ID ?? "unknown";
  }));

/** Origins the pages may connect to besides their own: other upload servers, the error reporting endpoint. */
const connectOrigins = (env: Env) => {
  const reporting = reportingOrigin(env);
  return reporting ? [...uploadServerOrigins(env), reporting] : uploadServerOrigins(env);
};

/** The origins the policy names, read from the variables once per isolate (the env object stays the same). */
const origins = new WeakMap<Env, { media: string | null; connect: string[]; office: string | null }>();
const originsOf = (env: Env) => {
  let found = origins.get(env);
  if (!found) {
    found = { media: mediaOrigin(env), connect: connectOrigins(env), office: officeOrigin(env) };
    origins.set(env, found);
  }
  return found;
};

const handler = {
  // Every answer, API and pages, gets the security headers (functions/middleware/security-headers.ts).
  async fetch(request, env, ctx) {
    // The nonce is for a page's policy; an API answer gets none (functions/middleware/security-headers.ts).
    const { pathname } = new URL(request.url);
    const nonce = pathname === "/api" || pathname.startsWith("/api/") ? "" : newNonce();
    const response = await route(request, env, ctx, nonce);
    // A refusal (an anonymous POST, a WebDAV PUT without rights, a body too large) often comes before the body
    // is read: what is left of it is read first, up to a bound, so the client gets the status, not a reset.
    if (response.status >= 400) await drainBody(request);
    const origins = originsOf(env);
    return secureResponse(request, response, nonce, origins.media, origins.connect, origins.office);
  },
  queue: (batch, env) => handleQueue(batch, env),
  // A failing cron is logged with its cause (the platform's own answer says only "exception").
  scheduled: (_controller, env, ctx) =>
    ctx.waitUntil(
      housekeeping(env).catch((err: Error) => {
        console.error("Cron failed:", err?.stack ?? err);
        throw err;
      }),
    ),
} satisfies ExportedHandler<Env, JobMessage>;

// With SENTRY_DSN the same handler runs inside Sentry's wrapper (functions/lib/error-reporting.ts); without it,
// as it is. The SDK (some 800 modules) is imported on the first request with a DSN, so a Worker without one never
// evaluates it.
let reporting: Promise<ExportedHandler<Env, JobMessage>> | undefined;
const reported = () =>
  (reporting ??= Promise.all([import("@sentry/cloudflare"), readRelease()]).then(([sentry]) => {
    setErrorReporter((err, requestId) =>
      sentry.withScope((scope) => {
        scope.setTag("request_id", requestId);
        sentry.captureException(err);
      }),
    );
    return sentry.withSentry((env: Env) => sentryOptions(env, release), { ...handler });
  }));

export default {
  fetch: async (request, env, ctx) => {
    if (!env.SENTRY_DSN) return handler.fetch(request, env, ctx);
    return (await reported()).fetch?.(request, env, ctx) as Promise<Response>;
  },
  // Sentry's wrapper needs the execution context (it flushes through waitUntil), which our handler does not.
  queue: async (batch, env, ctx) => {
    if (!env.SENTRY_DSN) return handler.queue(batch, env);
    return (await reported()).queue?.(batch, env, ctx);
  },
  scheduled: async (controller, env, ctx) => {
    if (!env.SENTRY_DSN) return handler.scheduled(controller, env, ctx);
    return (await reported()).scheduled?.(controller, env, ctx);
  },
} satisfies ExportedHandler<Env, JobMessage>;
