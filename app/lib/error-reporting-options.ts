import { scrubBreadcrumb, scrubEvent } from "../../shared/lib/scrub";

/**
 * The browser SDK's settings (docs/decisions/044-metrics-logs-errors.md, spec 9): every error, session replay for
 * 10% of sessions and for every session with an error, the build as the release. Replays mask all text and block
 * media, so file names and previews on screen never reach the recording. Kept apart from the SDK for a unit test.
 */
export const REPLAY_SESSION_RATE = 0.1;
export const REPLAY_ON_ERROR_RATE = 1;

/** The API's error (app/lib/api.ts) carries the request id of its answer: the report is tagged with it. */
function requestIdOf(error: unknown): string | undefined {
  const id = (error as { requestId?: unknown } | null)?.requestId;
  return typeof id === "string" && id ? id : undefined;
}

interface EventLike {
  tags?: Record<string, unknown>;
  [key: string]: unknown;
}

export function browserReportingOptions<I>(dsn: string, release: string, replay: I) {
  return {
    dsn,
    release,
    sampleRate: 1,
    replaysSessionSampleRate: REPLAY_SESSION_RATE,
    replaysOnErrorSampleRate: REPLAY_ON_ERROR_RATE,
    integrations: [replay],
    beforeSend<E extends EventLike>(event: E, hint: { originalException?: unknown }): E {
      const requestId = requestIdOf(hint?.originalException);
      const tagged = requestId ? { ...event, tags: { ...event.tags, request_id: requestId } } : event;
      return scrubEvent(tagged);
    },
    beforeBreadcrumb: <B extends object>(crumb: B): B => scrubBreadcrumb(crumb),
  };
}
