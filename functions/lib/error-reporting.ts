import type { CloudflareOptions } from "@sentry/cloudflare";
import type { Env } from "./env";
import { scrubBreadcrumb, scrubEvent } from "../../shared/lib/scrub";

/**
 * Error reporting to Sentry (docs/decisions/044-metrics-logs-errors.md), only when SENTRY_DSN is set: without it
 * worker.ts does not wrap the handler and reportError returns at once, so nothing is sent and nothing runs.
 * Spec 9: every error is sent (sample rate 1); what is sent goes through the scrubber (shared/lib/scrub.ts).
 */
export function sentryOptions(env: Pick<Env, "SENTRY_DSN">, release: string): CloudflareOptions {
  return {
    dsn: env.SENTRY_DSN,
    release,
    sampleRate: 1,
    beforeSend: (event) => scrubEvent(event),
    beforeBreadcrumb: (crumb) => scrubBreadcrumb(crumb),
  };
}

/** The DSN's origin, which the pages' Content-Security-Policy must let the browser SDK send to; null without one. */
export function reportingOrigin(env: Pick<Env, "SENTRY_DSN">): string | null {
  try {
    return env.SENTRY_DSN ? new URL(env.SENTRY_DSN).origin : null;
  } catch {
    return null;
  }
}

type Reporter = (err: unknown, requestId: string) => void;
let reporter: Reporter | null = null;

/**
 * worker.ts hands the SDK's capture in here. This module does not import the SDK itself: the Remix server build
 * reaches it through functions/lib/errors.ts and would bundle a second copy of the SDK.
 */
export function setErrorReporter(report: Reporter) {
  reporter = report;
}

/** An error the API answered 500 for: Hono's onError caught it, so the SDK's own wrapper never sees it. */
export function reportError(err: unknown, env: Pick<Env, "SENTRY_DSN"> | undefined, requestId: string) {
  if (!env?.SENTRY_DSN || !reporter) return;
  reporter(err, requestId);
}
