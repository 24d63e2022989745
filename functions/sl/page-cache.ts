import { getDb } from "../lib/db";
import type { Env } from "../lib/env";
import { countView } from "./recipient";

/**
 * The public page /sl/{id} at the edge. A Worker runs in front of Cloudflare's cache, so the page is only
 * cached if the Worker stores it: pages whose Cache-Control the service made public (no password, no
 * download limit, at most a minute and never past the window, decision 010) go into the data centre's
 * cache; edits and revocations purge them (purgeSharePage), and views are still counted on a hit.
 */

/** Workers' cache of this data centre (the project's types also carry the DOM's CacheStorage, which lacks it). */
const edgeCache = () => (caches as unknown as { default: Cache }).default;

const pagePath = /^\/sl\/([0-9A-Za-z]{22})$/;

/** The link id when this is a plain GET of a share page (a query string, e.g. Remix's ?_data, is not cached). */
export function sharePageId(request: Request): string | null {
  if (request.method !== "GET") return null;
  const url = new URL(request.url);
  return url.search ? null : (pagePath.exec(url.pathname)?.[1] ?? null);
}

/** Cookies and other headers never select a cached page: the key is the page's URL alone. */
const cacheKey = (origin: string, linkId: string) => new Request(`${origin}/sl/${linkId}`);

export async function cachedSharePage(request: Request, linkId: string, env: Env, ctx: ExecutionContext, render: () => Promise<Response>) {
  const key = cacheKey(new URL(request.url).origin, linkId);
  const hit = await edgeCache().match(key);
  if (hit) {
    if (hit.status === 200) ctx.waitUntil(countView(getDb(env), linkId));
    return hit;
  }
  const response = await render();
  if (/\bpublic\b/.test(response.headers.get("Cache-Control") ?? "") && !response.headers.has("Set-Cookie")) {
    ctx.waitUntil(edgeCache().put(key, response.clone()));
  }
  return response;
}

/** After an edit or a revocation: the next view renders from the database again. */
export const purgeSharePage = (origin: string, linkId: string) => edgeCache().delete(cacheKey(origin, linkId));
