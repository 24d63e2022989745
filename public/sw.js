/* Service worker of the media asset manager.
 *
 * <img>, <video> and download links cannot send an Authorization header, so the page hands this worker
 * the access token and the server ({cmd: 'init' | 'token' | 'server'}) and it signs their GET requests
 * under /api/asset/content/. Nothing else is touched and nothing is cached.
 *
 * The token is kept in this worker's memory only, never in Cache Storage or IndexedDB, where a page script
 * could read it. Browsers stop idle workers and their globals go with them: a worker that wakes up without
 * a token asks the page that made the request ({cmd: 'need-token'}, answered on a MessageChannel).
 */
const SIGNED_PREFIX = "/api/asset/content/";
/** Where earlier versions kept the token: removed on activation. */
const OLD_STATE_CACHE = "mam-sw-state";
const ASK_TIMEOUT_MS = 2000;

let state = null; // { token: string | null, server: string } once a page has told it

function originOf(server) {
  try {
    return new URL(server, self.location.origin).origin;
  } catch {
    return self.location.origin;
  }
}

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(Promise.all([caches.delete(OLD_STATE_CACHE), self.clients.claim()])));

function apply(data) {
  const current = state ?? { token: null, server: self.location.origin };
  if (data.cmd === "init") state = { token: data.token ?? null, server: originOf(data.server) };
  else if (data.cmd === "token") state = { ...current, token: data.token ?? null };
  else if (data.cmd === "server") state = { ...current, server: originOf(data.server) };
}

self.addEventListener("message", (event) => apply(event.data || {}));

/** Asks a page of ours for the token: the one that made the request, else any open window. */
async function askPage(clientId) {
  const client = (clientId && (await self.clients.get(clientId))) || (await self.clients.matchAll({ type: "window" }))[0];
  if (!client) return;
  const channel = new MessageChannel();
  const answer = new Promise((resolve) => {
    channel.port1.onmessage = (event) => resolve(event.data);
    setTimeout(() => resolve(null), ASK_TIMEOUT_MS);
  });
  client.postMessage({ cmd: "need-token" }, [channel.port2]);
  const data = await answer;
  if (data && !state?.token) apply({ cmd: "init", token: data.token, server: data.server });
}

function shouldSign(request, server) {
  const url = new URL(request.url);
  const knownOrigin = url.origin === self.location.origin || url.origin === server;
  return knownOrigin && url.pathname.startsWith(SIGNED_PREFIX);
}

async function signedFetch(request, clientId) {
  // Without a token (woken up empty, or told before the page had restored its session) it asks: the page may have one now.
  if (!state?.token) await askPage(clientId);
  const { token, server } = state ?? { token: null, server: self.location.origin };
  if (!token || !shouldSign(request, server)) return fetch(request);
  const headers = new Headers(request.headers); // keeps Range for media seeking
  headers.set("Authorization", `Bearer ${token}`);
  // A copy of a no-cors request (what <img>/<video> send) would silently drop Authorization: use cors mode.
  return fetch(request.url, {
    method: "GET",
    headers,
    mode: "cors",
    credentials: "same-origin",
    cache: request.cache === "only-if-cached" ? "default" : request.cache,
    redirect: "follow",
    signal: request.signal,
  });
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  // Cheap test first: everything but unsigned media GETs passes straight through.
  if (event.request.method !== "GET" || event.request.headers.has("Authorization")) return;
  if (!url.pathname.startsWith(SIGNED_PREFIX)) return;
  event.respondWith(signedFetch(event.request, event.clientId));
});
