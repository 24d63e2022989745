/* Service worker of the media asset manager (spec 1).
 *
 * <img>, <video> and download links cannot send an Authorization header, so the page hands this worker
 * the access token and the server ({cmd: 'init' | 'token' | 'server'}) and it signs their GET requests
 * under /api/asset/content/. Nothing else is touched and nothing is cached.
 *
 * Browsers stop idle workers and their globals go with them, so the state is also kept in Cache Storage.
 */
const STATE_CACHE = "mam-sw-state";
const STATE_URL = "/__mam_sw_state__";
const SIGNED_PREFIX = "/api/asset/content/";

let state = null; // { token: string | null, server: string }

async function loadState() {
  if (state) return state;
  const cache = await caches.open(STATE_CACHE);
  const stored = await cache.match(STATE_URL);
  state = stored ? await stored.json() : { token: null, server: self.location.origin };
  return state;
}

async function saveState(next) {
  state = next;
  const cache = await caches.open(STATE_CACHE);
  await cache.put(STATE_URL, new Response(JSON.stringify(next), { headers: { "Content-Type": "application/json" } }));
}

function originOf(server) {
  try {
    return new URL(server, self.location.origin).origin;
  } catch {
    return self.location.origin;
  }
}

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("message", (event) => {
  const data = event.data || {};
  const update = async () => {
    const current = await loadState();
    if (data.cmd === "init") await saveState({ token: data.token ?? null, server: originOf(data.server) });
    else if (data.cmd === "token") await saveState({ ...current, token: data.token ?? null });
    else if (data.cmd === "server") await saveState({ ...current, server: originOf(data.server) });
  };
  event.waitUntil(update());
});

function shouldSign(request, server) {
  const url = new URL(request.url);
  const knownOrigin = url.origin === self.location.origin || url.origin === server;
  return knownOrigin && url.pathname.startsWith(SIGNED_PREFIX);
}

async function signedFetch(request) {
  const { token, server } = await loadState();
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
  // Cheap test first: everything but unsigned media GETs passes straight through without waking the state cache.
  if (event.request.method !== "GET" || event.request.headers.has("Authorization")) return;
  if (!url.pathname.startsWith(SIGNED_PREFIX)) return;
  event.respondWith(signedFetch(event.request));
});
