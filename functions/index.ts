import { requestId } from "hono/request-id";
import authRoutes from "./auth/routes";
import groupRoutes from "./groups/routes";
import userRoutes from "./users/routes";
import { ensureFirstAdmin } from "./auth/bootstrap";
import { openRoutesOf, requireAuth, type OpenRoute } from "./lib/auth";
import { jsonBodyLimit } from "./lib/bodies";
import { refuseBadEnv } from "./middleware/env-check";
import { observe } from "./middleware/observe";
import { dbSession, onlyReads } from "./lib/db-session";
import { ApiError, handleError } from "./lib/errors";
import { createApp } from "./lib/openapi";
import { renderDocsPage } from "./system/docs-page";
import systemRoutes from "./system/routes";
import assetsRoutes from "./assets";
import uploadRoutes from "./uploads/routes";
import storageRoutes from "./storage/routes";
import signedRoutes from "./uploads/open-routes";
import taskRoutes from "./tasks/routes";
import taskCallbackRoutes from "./tasks/callback-routes";
import shareLinkRoutes from "./sl/routes";
import ssoRoutes from "./sso/routes";
import ssoLinkRoutes from "./sso/links-routes";
import fieldRoutes from "./fields/routes";
import listRoutes from "./lists/routes";
import tagRoutes from "./tags/routes";
import taxonomyRoutes from "./taxonomy/routes";
import eventRoutes from "./events/routes";
import searchRoutes from "./search/routes";
import duplicateRoutes from "./duplicates/routes";
import similarRoutes from "./duplicates/similar-routes";
import { flushSearchIndex } from "./search/indexer";
import { embedderFrom } from "./search/vector";
import { getDb } from "./lib/db";
import metricsRoutes from "./metrics/routes";
import appPasswordRoutes from "./dav/app-password-routes";
import wopiRoutes from "./wopi/routes";
import shopRoutes from "./shop/routes";
import udwfRoutes from "./udwf/routes";
import transcriptRoutes from "./transcripts/routes";
import recognizeRoutes from "./tasks/recognize-routes";
import reviewRoutes from "./review/routes";
import reviewLiveRoutes from "./review/live-routes";
import { dispatchEvents } from "./udwf/dispatch";
import { setEventDispatcher } from "./lib/event-dispatch";

/** The API: middleware, one sub-app per resource, one onError; served under /api by worker.ts. */
// sl's view count starts the automations through lib (functions/lib/event-dispatch.ts): sl lies below udwf.
setEventDispatcher(dispatchEvents);

export const api = createApp().basePath("/api");

api.use(requestId({ headerName: "X-Request-Id" }));
api.use(observe);
api.use(async (c, next) => {
  // Wrong variables (a short JWT_SECRET makes every key weak): nothing is served until they are fixed. Checked
  // before the session replaces c.env, so the check's memo (per env object) holds across requests.
  refuseBadEnv(c.env);
  await ensureFirstAdmin(c.env);
  await next();
});
api.use(dbSession);
// JSON bodies have a size limit (413 past it; functions/lib/bodies.ts).
api.use(jsonBodyLimit);
// Every route needs the bearer but those whose definition says `security: []` (read once, on the first request).
let openRoutes: OpenRoute[] | undefined;
api.use(requireAuth(() => (openRoutes ??= openRoutesOf(api, "/api"))));

// A change's search documents are rebuilt once the answer is sent (functions/search/indexer.ts); a search made
// before that indexes them itself.
api.use(async (c, next) => {
  await next();
  if (onlyReads(c.req.method, c.req.path) || c.res.status >= 400) return;
  c.executionCtx.waitUntil(
    flushSearchIndex(getDb(c.env), 1000, embedderFrom(c.env)).catch((error) => console.error("search index:", error)),
  );
  // The change's events may start automations (functions/udwf/dispatch.ts).
  c.executionCtx.waitUntil(dispatchEvents(c.env).catch((error) => console.error("automations dispatch:", error)));
});

api.route("/", signedRoutes);

api.route("/", authRoutes);
api.route("/", ssoRoutes);
api.route("/", appPasswordRoutes);
api.route("/", groupRoutes);
api.route("/", ssoLinkRoutes);
api.route("/", userRoutes);
api.route("/", systemRoutes);
api.route("/", metricsRoutes);
api.route("/", assetsRoutes);
api.route("/", uploadRoutes);
api.route("/", storageRoutes);
api.route("/", taskRoutes);
api.route("/", taskCallbackRoutes);
api.route("/", shareLinkRoutes);
api.route("/", fieldRoutes);
api.route("/", listRoutes);
api.route("/", tagRoutes);
api.route("/", taxonomyRoutes);
api.route("/", eventRoutes);
api.route("/", searchRoutes);
api.route("/", similarRoutes);
api.route("/", duplicateRoutes);
api.route("/", wopiRoutes);
api.route("/", shopRoutes);
api.route("/", udwfRoutes);
api.route("/", transcriptRoutes);
api.route("/", recognizeRoutes);
api.route("/", reviewRoutes);
api.route("/", reviewLiveRoutes);

api.openAPIRegistry.registerComponent("securitySchemes", "bearer", { type: "http", scheme: "bearer", bearerFormat: "JWT" });
const openApiConfig = { openapi: "3.1.0", info: { title: "Медиа-архив", version: "1" }, security: [{ bearer: [] }] };
api.doc31("/openapi.json", openApiConfig);
api.get("/docs", (c) => c.html(renderDocsPage(api.getOpenAPI31Document(openApiConfig) as never)));

api.notFound((c) => handleError(new ApiError("not_found", `Нет такого метода API: ${c.req.method} ${c.req.path}`), c));
api.onError(handleError);
