import type { AppLoadContext, EntryContext } from "@remix-run/cloudflare";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import { setEventDispatcher } from "../functions/lib/event-dispatch";
import { dispatchEvents } from "../functions/udwf/dispatch";
import { NonceContext } from "./lib/nonce";

// The share and review-guest pages count views (functions/sl/recipient.ts), which may start automations through
// functions/lib/event-dispatch.ts: this build bundles its own copy of that module, so it is handed the dispatcher too.
setEventDispatcher(dispatchEvents);

/**
 * The build id also written to /version.json; the worker can read it as `build.entry.module.BUILD_ID`
 * for GET /api/version, so both answers always agree.
 */
export const BUILD_ID = __BUILD_ID__;
export const APP_VERSION = __APP_VERSION__;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // Every inline script of the document carries the request's nonce, or the page's policy refuses it.
  const nonce = typeof loadContext.cspNonce === "string" ? loadContext.cspNonce : undefined;
  const app = (
    <NonceContext.Provider value={nonce}>
      <RemixServer context={remixContext} url={request.url} nonce={nonce} />
    </NonceContext.Provider>
  );
  const body = await renderToReadableStream(app, {
    nonce,
    signal: request.signal,
    onError(error: unknown) {
      console.error(error);
      responseStatusCode = 500;
    },
  });

  // Crawlers (and the share-link page's link previews) get the whole document at once.
  if (isbot(request.headers.get("user-agent") ?? "")) await body.allReady;

  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}
