import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./env";
import { ApiError } from "./errors";

/**
 * Bounded request bodies (docs/decisions/025-threat-model.md, "Request bodies"). A body is read only up to
 * the size its use allows; a refused request's unread body is drained, up to a bound, before the answer
 * goes out: a server that answers and closes while the client is still sending makes the client's
 * socket see a reset instead of the status (Node's fetch, curl and WebDAV clients all report the reset).
 */

/** The API's JSON bodies. The CSV import sends up to 5,000,000 characters in one JSON string, which is
 * at most 15 MB as UTF-8 (three bytes per character, JSON escapes take two); 16 MiB leaves room for that. */
export const maxJsonBody = 16 * 1024 * 1024;

/** How much of a refused request's body is read and thrown away so the client sees the answer; a larger
 * body is cut off (its client may then see the connection close), and so is one slower than `drainMs`. */
export const drainLimit = 32 * 1024 * 1024;
const drainMs = 10_000;

export const tooLarge = (limit: number) =>
  new ApiError("payload_too_large", `Тело запроса больше ${Math.floor(limit / 1024)} КиБ`, [
    { field: "(тело запроса)", message: `не больше ${limit} байт` },
  ]);

/**
 * A body as UTF-8 text, refused with `refuse()` once it is longer than `limit` bytes (by its
 * Content-Length, or while it arrives when it has none). What a refused body has left is the drain's.
 */
export async function readBoundedText(req: Request, limit: number, refuse: () => Error = () => tooLarge(limit)): Promise<string> {
  const declared = req.headers.get("Content-Length");
  if (declared !== null && Number(declared) > limit) throw refuse();
  if (!req.body) return "";
  const reader = req.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) throw refuse();
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    reader.releaseLock();
  }
  return text + decoder.decode();
}

/**
 * Reads and discards what is left of a request's body, up to `drainLimit` bytes and `drainMs`: called
 * before a refusal is answered (worker.ts, for every answer of 400 and above), so a client still sending
 * a small body receives the status. A body already read, or one declared larger than the bound, is left.
 */
export async function drainBody(req: Request): Promise<void> {
  const body = req.body;
  if (!body || body.locked) return;
  const declared = req.headers.get("Content-Length");
  if (declared !== null && Number(declared) > drainLimit) {
    await body.cancel().catch(() => {});
    return;
  }
  let reader: ReadableStreamDefaultReader<Uint8Array>;
  try {
    reader = body.getReader();
  } catch {
    return;
  }
  const deadline = Date.now() + drainMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), drainMs);
  });
  try {
    for (let read = 0; read <= drainLimit && Date.now() < deadline; ) {
      const r = await Promise.race([reader.read(), late]);
      if (r === "late" || r.done) break;
      read += r.value.byteLength;
    }
    await reader.cancel().catch(() => {});
  } catch {
    // A client that went away mid-body: nothing left to read.
  } finally {
    clearTimeout(timer);
  }
}

const isJson = (type: string | undefined) => /^application\/([\w.+-]*\+)?json\b/i.test(type ?? "");

/**
 * The API's JSON bodies are at most `maxJsonBody` bytes (413 past it). A declared Content-Length is
 * checked at once; a body without one is counted as the route reads it: the route's `c.req.json()` /
 * `c.req.text()` (zod validators included) go through Hono's body cache, which is given a bounded
 * reader here, read only when a route asks for the body, so routes that stream `c.req.raw.body`
 * (uploads, transcoder outputs, WOPI) are left as they are. Hono's validator turns any failure to read
 * JSON into "malformed JSON" (400), so an overflow is remembered and answered 413 once the route is done.
 */
export const jsonBodyLimit = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.req.raw.body || !isJson(c.req.header("Content-Type"))) return next();
  const declared = c.req.header("Content-Length");
  if (declared !== undefined && Number(declared) > maxJsonBody) throw tooLarge(maxJsonBody);
  let text: Promise<string> | undefined;
  let overflow = false;
  const refuse = () => {
    overflow = true;
    return tooLarge(maxJsonBody);
  };
  Object.defineProperty(c.req.bodyCache, "text", {
    enumerable: true,
    configurable: true,
    get: () => (text ??= readBoundedText(c.req.raw, maxJsonBody, refuse)),
  });
  await next();
  if (overflow) throw tooLarge(maxJsonBody);
});
