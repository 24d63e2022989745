import type { z } from "zod";
import * as uploads from "../../shared/uploads/contract";
import type { uploadServer as uploadServerSchema } from "../../shared/uploads/schemas";
import { call } from "./api";

/**
 * Which upload server the page sends files to (spec 7 and 9, docs/decisions/041-upload-servers.md): the list from
 * GET /api/uldl-list, each server's /ping called directly and timed, each time reported with POST /api/uldl-status,
 * both refreshed every 10 minutes. The Worker itself is always on the list and is the fallback.
 */

export type UploadServer = z.infer<typeof uploadServerSchema>;
export interface Ping {
  server: UploadServer;
  /** Milliseconds to answer /ping; null when it did not answer. */
  ms: number | null;
}

export const REFRESH_MS = 10 * 60 * 1000;
const PING_TIMEOUT_MS = 3000;
/** Another server must beat this Worker by this much to be worth another origin (and its preflights). */
const MARGIN_MS = 50;

/**
 * The server to use: the fastest that answered, unless it beats the Worker (`fallback`) by less than the margin; the
 * Worker when nothing else answered.
 */
export function chooseServer(pings: readonly Ping[], fallback: UploadServer): UploadServer {
  const own = pings.find((p) => p.server.id === fallback.id)?.ms ?? null;
  const answered = pings.filter((p): p is Ping & { ms: number } => p.ms !== null && p.server.id !== fallback.id);
  const best = answered.sort((a, b) => a.ms - b.ms)[0];
  if (!best) return fallback;
  return own === null || best.ms + MARGIN_MS < own ? best.server : fallback;
}

async function ping(server: UploadServer): Promise<Ping> {
  const started = performance.now();
  try {
    const res = await fetch(`${server.url}/ping`, { cache: "no-store", signal: AbortSignal.timeout(PING_TIMEOUT_MS) });
    return { server, ms: res.ok ? Math.round(performance.now() - started) : null };
  } catch {
    return { server, ms: null };
  }
}

let chosen: { server: UploadServer; at: number } | null = null;
let choosing: Promise<UploadServer> | null = null;

async function refresh(): Promise<UploadServer> {
  const servers = await call(uploads.uploadServers);
  const fallback = servers[0];
  const pings = await Promise.all(servers.map(ping));
  // The reports are the server's view of its reach; a failed report does not hold the upload up.
  await Promise.all(
    pings.flatMap((p) =>
      p.ms === null ? [] : [call(uploads.reportPing, { body: { id: p.server.id, ping: p.ms } }).catch(() => undefined)],
    ),
  );
  const server = chooseServer(pings, fallback);
  chosen = { server, at: Date.now() };
  return server;
}

let refreshing = false;

function choose(): Promise<UploadServer> {
  choosing ??= refresh().finally(() => {
    choosing = null;
  });
  return choosing;
}

/**
 * For the upload queue: the server for the next upload (the Worker when the list cannot be had), chosen on first use
 * and again every 10 minutes while the page is shown; a server that stopped answering is dropped until then.
 */
export const uploadServer = {
  async url(): Promise<string | undefined> {
    if (!refreshing) {
      refreshing = true;
      setInterval(() => {
        if (document.visibilityState === "visible") void choose().catch(() => undefined);
      }, REFRESH_MS);
    }
    if (chosen && Date.now() - chosen.at < REFRESH_MS) return chosen.server.url;
    return choose().then(
      (server) => server.url,
      () => undefined,
    );
  },
  down(url: string) {
    if (chosen?.server.url === url) chosen = null;
  },
};
