import { browserReportingOptions } from "./error-reporting-options";
import type { PublicEnv } from "./public-env";

let started = false;

/**
 * Starts Sentry in the browser when the server passed a DSN (app/lib/public-env.ts); otherwise does nothing, and
 * the SDK is not even downloaded: it is imported only here, on demand. A .client module: the server build (and
 * so the Worker) never carries the browser SDK.
 */
export async function startErrorReporting(env: PublicEnv) {
  if (!env.SENTRY_DSN || started) return;
  started = true;
  const Sentry = await import("@sentry/browser");
  const replay = Sentry.replayIntegration({ maskAllText: true, blockAllMedia: true });
  Sentry.init(browserReportingOptions(env.SENTRY_DSN, __BUILD_ID__, replay) as Parameters<typeof Sentry.init>[0]);
}
