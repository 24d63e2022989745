/**
 * The transcoder's HTTP face, apart from the process that runs it (server.mjs), so it can be tested:
 * the settings it refuses to start with, the bearer check and the origin check of every URL in a job.
 * It fails closed (docs/decisions/024-placing-rights-transcoder-quota.md): no token only on loopback,
 * and a job may name no URL outside the Worker's origin.
 */
import { createHash, timingSafeEqual } from "node:crypto";

const loopbackHosts = new Set(["127.0.0.1", "::1", "[::1]", "localhost"]);
export const isLoopback = (host) => loopbackHosts.has(String(host).toLowerCase());

/**
 * The settings from the environment; throws (the process must not start) when they would leave it open:
 * no TRANSCODER_TOKEN on a host other than loopback, or no allowed origin there. TRANSCODER_ALLOWED_ORIGIN
 * (or PUBLIC_URL) is the Worker's origin; on loopback without it only loopback URLs are fetched.
 */
export function transcoderConfig(env = process.env) {
  const host = env.TRANSCODER_HOST || "127.0.0.1";
  const port = Number(env.TRANSCODER_PORT ?? 8788);
  const token = env.TRANSCODER_TOKEN ?? "";
  if (!token && !isLoopback(host)) {
    throw new Error(
      `TRANSCODER_TOKEN is not set: refusing to listen on ${host} without one (only 127.0.0.1, ::1 or localhost may go without)`,
    );
  }
  const configured = env.TRANSCODER_ALLOWED_ORIGIN || env.PUBLIC_URL || "";
  /** @type {string | null} */
  let allowedOrigin = null;
  if (configured) {
    try {
      allowedOrigin = new URL(configured).origin;
    } catch {
      throw new Error(`TRANSCODER_ALLOWED_ORIGIN is not a URL: ${configured}`);
    }
    if (allowedOrigin === "null") throw new Error(`TRANSCODER_ALLOWED_ORIGIN is not an http(s) origin: ${configured}`);
  } else if (!isLoopback(host)) {
    throw new Error(
      `TRANSCODER_ALLOWED_ORIGIN (the Worker's PUBLIC_URL) is not set: refusing to listen on ${host} and fetch wherever a job points`,
    );
  }
  return { host, port, token, allowedOrigin };
}

const digest = (s) => createHash("sha256").update(s).digest();

/** The Authorization header carries the token: compared in constant time (over hashes, so lengths do not show either). */
export function bearerMatches(header, token) {
  if (!token) return true;
  const given = typeof header === "string" && header.startsWith("Bearer ") ? header.slice(7) : "";
  return timingSafeEqual(digest(given), digest(token));
}

/** True for an http(s) URL, without credentials, at `origin` (or, with none set, on a loopback host). */
export function urlAllowed(value, origin) {
  let url;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (!/^https?:$/.test(url.protocol) || url.username || url.password) return false;
  return origin ? url.origin === origin : isLoopback(url.hostname);
}

/** Names of the job's URLs (source, outputs, callback, watermark image, recogniser) that lie outside the allowed origin. */
export function foreignUrls(job, origin) {
  const urls = [
    ["source.url", job.source?.url],
    ["callback.url", job.callback?.url],
    ...Object.entries(job.outputs ?? {}).map(([name, url]) => [`outputs.${name}`, url]),
    ...(job.setup?.image_url !== undefined ? [["setup.image_url", job.setup.image_url]] : []),
    // The Worker's recogniser receives the audio and the run's token: never anywhere else.
    ...(job.setup?.recognizer !== undefined ? [["setup.recognizer.url", job.setup.recognizer?.url]] : []),
  ];
  return urls.filter(([, url]) => !urlAllowed(url, origin)).map(([name]) => name);
}

function send(res, status, body) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

async function readJson(req) {
  let raw = "";
  for await (const chunk of req) {
    raw += chunk;
    if (raw.length > 1_000_000) throw new Error("body too large");
  }
  return JSON.parse(raw || "{}");
}

const validJob = (j) =>
  j &&
  typeof j.id === "string" &&
  Number.isInteger(j.run) &&
  typeof j.operation === "string" &&
  j.source?.url &&
  j.callback?.url &&
  j.callback?.token &&
  typeof j.outputs === "object";

/**
 *   POST   /tasks               accept a job (202); idempotent by id and run; 400 if a URL is foreign
 *   GET    /tasks/{id}          { id, run, state } or 404
 *   DELETE /tasks/{id}          stop and forget (pause, cancel)
 *   POST   /tasks/{id}/priority { priority }
 *   GET    /health              { ok, queued, running, concurrency, ffmpeg }
 */
export function createHandler({ queue, token, allowedOrigin, workerName, health = () => ({}) }) {
  return async (req, res) => {
    try {
      const url = new URL(req.url, "http://x");
      if (url.pathname === "/health") return send(res, 200, { ok: true, ...queue.stats(), worker: workerName, ...health() });
      if (!bearerMatches(req.headers.authorization, token)) return send(res, 401, { error: "unauthorized" });
      const m = /^\/tasks(?:\/([0-9a-f-]{36})(\/priority)?)?$/.exec(url.pathname);
      if (!m) return send(res, 404, { error: "not found" });
      const [, id, priority] = m;
      if (!id && req.method === "POST") {
        const job = await readJson(req);
        if (!validJob(job)) return send(res, 400, { error: "invalid job" });
        const foreign = foreignUrls(job, allowedOrigin);
        if (foreign.length) return send(res, 400, { error: `URLs outside ${allowedOrigin ?? "loopback"}: ${foreign.join(", ")}` });
        const r = queue.add(job);
        return send(res, r.stale ? 409 : 202, { ...r, worker: workerName });
      }
      if (id && priority && req.method === "POST") {
        const body = await readJson(req);
        return queue.setPriority(id, Number(body.priority) || 0) ? send(res, 200, { ok: true }) : send(res, 404, { error: "unknown task" });
      }
      if (id && req.method === "GET") {
        const j = queue.get(id);
        return j ? send(res, 200, j) : send(res, 404, { error: "unknown task" });
      }
      if (id && req.method === "DELETE") return send(res, 200, { removed: queue.remove(id) });
      return send(res, 405, { error: "method not allowed" });
    } catch (err) {
      send(res, 400, { error: err instanceof Error ? err.message : String(err) });
    }
  };
}
