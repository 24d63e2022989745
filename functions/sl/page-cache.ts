import { getDb, type Db } from "../lib/db";
import type { Env } from "../lib/env";
import { LinkUnavailable, openLink } from "./public";
import { countView } from "./recipient";

/**
 * The public page /sl/{id} and its info answer /api/sl/info/{id} at the edge (docs/decisions/049). A Worker
 * runs in front of Cloudflare's cache, so an answer is only cached if the Worker stores it: answers whose
 * Cache-Control the service made public (no password, no download limit, at most a minute and never past the
 * window, decision 010) go into the data centre's cache, and views are still counted on a hit.
 *
 * The key holds the link's version: a digest of everything the answer is made of (the link, its asset and
 * variants, what the creator's rights allow). An edit, a revocation, a change to the asset or to the creator's
 * rights makes a new key at once in every data centre, where a purge would only reach this one; a link that
 * no longer works is never looked up.
 */

/** Workers' cache of this data centre (the project's types also carry the DOM's CacheStorage, which lacks it). */
const edgeCache = () => (caches as unknown as { default: Cache }).default;

const cachedPaths = [
  { kind: "page", pattern: /^\/sl\/([0-9A-Za-z]{22})$/ },
  { kind: "info", pattern: /^\/api\/sl\/info\/([0-9A-Za-z]{22})$/ },
] as const;

export interface SharedAnswer {
  kind: (typeof cachedPaths)[number]["kind"];
  linkId: string;
}

/** A plain GET of a share page or its info (a query string, e.g. Remix's ?_data, is not cached). */
export function sharedAnswerOf(request: Request): SharedAnswer | null {
  if (request.method !== "GET") return null;
  const url = new URL(request.url);
  if (url.search) return null;
  for (const { kind, pattern } of cachedPaths) {
    const linkId = pattern.exec(url.pathname)?.[1];
    if (linkId) return { kind, linkId };
  }
  return null;
}

/**
 * The link's version, or null when the answer must not come from the cache: the link is unknown, revoked,
 * expired, used up or no longer backed by its creator's rights, or it has a password or a download limit.
 * It is read the way the answer is (openLink: one batch and the creator's access), so whatever the answer
 * depends on is in it; what the cache saves is the rendering.
 */
export async function linkVersion(db: Db, env: Env, linkId: string, now: number): Promise<string | null> {
  const o = await openLink(db, env, linkId, null, now).catch((error) => {
    if (error instanceof LinkUnavailable) return null;
    throw error;
  });
  if (!o || o.link.passwordHash !== null || o.link.downloadLimit !== null) return null;
  // Not the counts: a view would make a new version.
  const { viewCount, downloadCount, ...link } = o.link;
  const shown = [link, o.asset, [...o.allowed].sort(), o.original, o.proxy, o.viewable, o.preview];
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(shown)));
  return btoa(String.fromCharCode(...new Uint8Array(digest, 0, 12)))
    .replaceAll("+", "-")
    .replaceAll("/", "_");
}

/** Cookies and other headers never select a cached answer: the key is the kind, the link and its version. */
const cacheKey = (origin: string, { kind, linkId }: SharedAnswer, version: string) =>
  new Request(`${origin}/edge/${kind}/${linkId}/${version}`);

export async function cachedSharedAnswer(
  request: Request,
  answer: SharedAnswer,
  env: Env,
  ctx: ExecutionContext,
  render: () => Promise<Response>,
) {
  const db = getDb(env);
  const version = await linkVersion(db, env, answer.linkId, Math.floor(Date.now() / 1000));
  if (version === null) return render();
  const key = cacheKey(new URL(request.url).origin, answer, version);
  const hit = await edgeCache().match(key);
  if (hit) {
    if (hit.status === 200) ctx.waitUntil(countView(db, answer.linkId, env));
    return hit;
  }
  const response = await render();
  if (response.status === 200 && /\bpublic\b/.test(response.headers.get("Cache-Control") ?? "") && !response.headers.has("Set-Cookie")) {
    // Each answer has its own request id and session bookmark: the stored copy carries neither.
    const stored = new Response(response.clone().body, response);
    for (const name of ["X-Request-Id", "X-D1-Bookmark"]) stored.headers.delete(name);
    ctx.waitUntil(edgeCache().put(key, stored));
  }
  return response;
}
