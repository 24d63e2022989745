import { sessionStore } from "./session";

/**
 * Messages understood by public/sw.js: init gives both values, token and server one each.
 * The worker adds the bearer to media requests under /api/asset/content/ that <img>/<video> cannot sign.
 * It keeps the token in memory only; woken up without one, it asks the page (`need-token`, below).
 */
export type ServiceWorkerMessage =
  | { cmd: "init"; token: string | null; server: string }
  | { cmd: "token"; token: string | null }
  | { cmd: "server"; server: string };

const currentToken = () => sessionStore.get().tokens?.bearer ?? null;

async function post(message: ServiceWorkerMessage): Promise<void> {
  const registration = await navigator.serviceWorker.ready;
  registration.active?.postMessage(message);
}

/** Registers /sw.js once per page and keeps it told about the token. Returns the unsubscribe function. */
export function startServiceWorker(): () => void {
  if (!("serviceWorker" in navigator)) return () => {};
  const init = () => void post({ cmd: "init", token: currentToken(), server: window.location.origin }).catch(console.error);

  const answer = (event: MessageEvent) => {
    if (event.data?.cmd === "need-token") event.ports[0]?.postMessage({ token: currentToken(), server: window.location.origin });
  };

  navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(init, (error) => console.error("service worker", error));
  // A new worker took over (first visit, update): it starts empty.
  navigator.serviceWorker.addEventListener("controllerchange", init);
  navigator.serviceWorker.addEventListener("message", answer);
  navigator.serviceWorker.startMessages();

  let lastToken = currentToken();
  const unsubscribe = sessionStore.subscribe(() => {
    const token = currentToken();
    if (token === lastToken) return;
    lastToken = token;
    void post({ cmd: "token", token }).catch(console.error);
  });
  return () => {
    unsubscribe();
    navigator.serviceWorker.removeEventListener("controllerchange", init);
    navigator.serviceWorker.removeEventListener("message", answer);
  };
}

/** Whether the worker already controlled this page when it loaded (a browser's first page of the site it does not). */
const controlledAtLoad = typeof navigator !== "undefined" && "serviceWorker" in navigator && navigator.serviceWorker.controller !== null;

/**
 * On a browser's first page the worker installs while the page loads, and an image under /api/asset/content/ asked
 * for before it controls the page, or before the page has restored its session, goes unsigned and fails (401).
 * `retry` runs once both are there (at once when they are). Null when the page was controlled from its start: a
 * failure then is the file's own. Returns the unsubscribe function.
 */
export function whenMediaSigned(retry: () => void): (() => void) | null {
  if (typeof navigator === "undefined" || !("serviceWorker" in navigator) || controlledAtLoad) return null;
  const container = navigator.serviceWorker;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unsubscribe = () => {};
  const stop = () => {
    unsubscribe();
    container.removeEventListener("controllerchange", check);
  };
  function check() {
    if (!container.controller || currentToken() === null) return;
    stop();
    timer = setTimeout(retry, 0);
  }
  unsubscribe = sessionStore.subscribe(check);
  container.addEventListener("controllerchange", check);
  check();
  return () => {
    stop();
    clearTimeout(timer);
  };
}
