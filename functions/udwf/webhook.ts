import { Webhook } from "standardwebhooks";
import { configOf } from "../lib/config";
import type { Env } from "../lib/env";
import { StepError } from "./step-error";

/**
 * The webhook.call action: a JSON POST signed per Standard Webhooks (webhook-id, webhook-timestamp,
 * webhook-signature "v1,<base64 HMAC-SHA256>"). The id is the run id and step index, the same on every retry, so
 * a receiver can drop repeats. A workflow must not reach into the network the Worker runs in, nor read answers back
 * (docs/decisions/053-outbound-sends.md):
 * - the connection goes through WEBHOOK_FETCH when bound: an outbound service of its own that reaches public
 *   addresses only (workerd's network service with allow = ["public"]), so a name that resolves to a private
 *   address is refused where the address is known. On Cloudflare the platform refuses private addresses itself;
 * - before that, the URL's host is checked as written: private, loopback, link-local, CGNAT, ULA and metadata
 *   addresses in any notation, and names that only mean something inside a network;
 * - redirects are never followed (a 3xx fails the delivery, as Standard Webhooks senders do);
 * - the answer's body is counted, never kept: the log has its status, size and time.
 * WEBHOOK_ALLOW_PRIVATE=true (local work, the API tests) lifts the address rules and uses the normal outbound path.
 */

/** An IPv4 address as 32 bits, from any notation inet_aton takes (127.1, 2130706433, 0x7f.1, 0177.0.0.1), or null. */
export function ipv4Value(host: string): number | null {
  const parts = host.split(".");
  if (parts.length > 4 || parts.some((p) => p === "")) return null;
  const nums: number[] = [];
  for (const p of parts) {
    let n: number;
    if (/^0x[0-9a-f]*$/i.test(p)) n = p.length === 2 ? 0 : parseInt(p.slice(2), 16);
    else if (/^0[0-7]+$/.test(p)) n = parseInt(p.slice(1), 8);
    else if (/^(0|[1-9]\d*)$/.test(p)) n = Number(p);
    else return null;
    if (!Number.isFinite(n)) return null;
    nums.push(n);
  }
  const last = nums.pop() as number;
  if (nums.some((n) => n > 255) || last >= 2 ** (8 * (4 - nums.length))) return null;
  return nums.reduce((v, n, i) => v + n * 2 ** (8 * (3 - i)), 0) + last;
}

/** An IPv6 address as eight 16-bit groups (an embedded IPv4 tail allowed), or null. */
export function ipv6Groups(host: string): number[] | null {
  const a = host
    .replace(/^\[|\]$/g, "")
    .replace(/%.*$/, "")
    .toLowerCase();
  if (!a.includes(":")) return null;
  const halves = a.split("::");
  if (halves.length > 2) return null;
  const expand = (s: string): number[] | null => {
    if (s === "") return [];
    const out: number[] = [];
    const groups = s.split(":");
    for (const [i, g] of groups.entries()) {
      if (i === groups.length - 1 && g.includes(".")) {
        const v4 = /^\d{1,3}(\.\d{1,3}){3}$/.test(g) ? ipv4Value(g) : null;
        if (v4 === null) return null;
        out.push(Math.floor(v4 / 65536), v4 % 65536);
      } else if (/^[0-9a-f]{1,4}$/.test(g)) out.push(parseInt(g, 16));
      else return null;
    }
    return out;
  };
  const head = expand(halves[0]);
  const tail = halves.length === 2 ? expand(halves[1]) : [];
  if (!head || !tail) return null;
  const fill = 8 - head.length - tail.length;
  if (halves.length === 2 ? fill < 1 : fill !== 0) return null;
  return [...head, ...Array<number>(fill).fill(0), ...tail];
}

const inV4 = (v: number, base: string, bits: number) => {
  const b = ipv4Value(base) as number;
  const size = 2 ** (32 - bits);
  return Math.floor(v / size) === Math.floor(b / size);
};

/** Not a public unicast address: this network, private, loopback, CGNAT, link-local (metadata), test nets, multicast. */
const v4Blocked = (v: number) =>
  [
    ["0.0.0.0", 8],
    ["10.0.0.0", 8],
    ["100.64.0.0", 10],
    ["127.0.0.0", 8],
    ["169.254.0.0", 16],
    ["172.16.0.0", 12],
    ["192.0.0.0", 24],
    ["192.0.2.0", 24],
    ["192.88.99.0", 24],
    ["192.168.0.0", 16],
    ["198.18.0.0", 15],
    ["198.51.100.0", 24],
    ["203.0.113.0", 24],
    ["224.0.0.0", 4],
    ["240.0.0.0", 4],
  ].some(([base, bits]) => inV4(v, base as string, bits as number));

function v6Blocked(g: number[]): boolean {
  const v4 = g[6] * 65536 + g[7];
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(5) && g[5] === 0xffff) return v4Blocked(v4); // ::ffff:a.b.c.d, IPv4-mapped
  if (zeros(6)) return true; // ::, ::1 and the old IPv4-compatible ::a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4Blocked(v4); // NAT64 64:ff9b::/96
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return true; // local-use NAT64 64:ff9b:1::/48
  if (g[0] === 0x2002) return v4Blocked(g[1] * 65536 + g[2]); // 6to4 2002:a.b.c.d::/48
  if (g[0] === 0x2001 && g[1] === 0) return true; // Teredo 2001::/32 (hides an IPv4 address)
  if (g[0] === 0x2001 && g[1] === 0xdb8) return true; // documentation
  if (g[0] === 0x100 && zeros(4)) return true; // discard 100::/64
  if ((g[0] & 0xfe00) === 0xfc00) return true; // ULA fc00::/7 (AWS's metadata fd00:ec2::254 too)
  if ((g[0] & 0xffc0) === 0xfe80 || (g[0] & 0xffc0) === 0xfec0) return true; // link-local, old site-local
  if ((g[0] & 0xff00) === 0xff00) return true; // multicast
  return false;
}

/**
 * Names that mean something only inside a network: one label (resolved by search domains or a hosts file, like a
 * machine's own name), localhost, and the suffixes set aside for local use, including cloud metadata names.
 */
const internalName = /(^|\.)(localhost|local|internal|intranet|lan|home|corp|private|localdomain|home\.arpa|in-addr\.arpa|ip6\.arpa)$/i;

/** Whether a URL host (as URL.hostname gives it, or as written) is not a public address or name. */
export function privateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.+$/, "");
  if (host === "") return true;
  const v6 = ipv6Groups(host);
  if (v6) return v6Blocked(v6);
  if (host.includes(":") || host.startsWith("[")) return true; // an IPv6 form we cannot read: not sent
  const v4 = ipv4Value(host);
  if (v4 !== null) return v4Blocked(v4);
  // Digits and dots that are not an address are not a name either (a host no resolver should be asked about).
  if (/^[0-9.]+$/.test(host) || /^0x/i.test(host.split(".").at(-1) ?? "")) return true;
  return !host.includes(".") || internalName.test(host);
}

/** Why the URL may not be called (in Russian, for the run log and the setup check), or null. */
export function privateUrlReason(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "не адрес URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "только http(s)-адрес";
  if (allowPrivate) return null;
  if (url.username || url.password) return "адрес с логином и паролем не принимается";
  return privateHost(url.hostname) ? "адрес во внутренней сети запрещён (WEBHOOK_ALLOW_PRIVATE)" : null;
}

export const allowsPrivate = (env: Pick<Env, "WEBHOOK_ALLOW_PRIVATE">) => configOf(env).WEBHOOK_ALLOW_PRIVATE;

/** Where webhooks connect from: the public-only outbound service when bound, the normal path for local work. */
export function webhookFetcher(env: Pick<Env, "WEBHOOK_ALLOW_PRIVATE" | "WEBHOOK_FETCH">): Pick<Fetcher, "fetch"> {
  if (!allowsPrivate(env) && env.WEBHOOK_FETCH) return env.WEBHOOK_FETCH;
  return { fetch: (input, init) => fetch(input, init) };
}

/** The most of an answer's body that is counted; past it the rest is dropped unread. */
const COUNT_LIMIT = 1024 * 1024;

/** Reads and drops a body, answering its size in bytes (at most COUNT_LIMIT + one chunk) and whether it was cut. */
async function bodySize(res: Response): Promise<{ bytes: number; cut: boolean }> {
  if (!res.body) return { bytes: 0, cut: false };
  const reader = res.body.getReader();
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes, cut: false };
    bytes += value.byteLength;
    if (bytes > COUNT_LIMIT) {
      await reader.cancel().catch(() => {});
      return { bytes, cut: true };
    }
  }
}

export interface WebhookAnswer {
  status: number;
  /** Bytes of the answer's body (counted, never kept). */
  bytes: number;
  ms: number;
  /** The log line: status, size and time, never the body. */
  line: string;
}

/** "ответ 200, 14 Б, 35 мс": what the step log keeps of an attempt. */
export const answerLine = (status: number, bytes: number, cut: boolean, ms: number) =>
  `ответ ${status}, ${cut ? "больше " : ""}${bytes} Б, ${ms} мс`;

/**
 * POSTs the payload, signed; answers the receiver's status, the body's size and the time. Throws a StepError when it
 * cannot connect (retried) or the URL is refused (not retried).
 */
export async function callWebhook(
  env: Pick<Env, "WEBHOOK_ALLOW_PRIVATE" | "WEBHOOK_FETCH">,
  opts: { url: string; secret: string; msgId: string; payload: unknown },
): Promise<WebhookAnswer> {
  const refused = privateUrlReason(opts.url, allowsPrivate(env));
  if (refused) throw new StepError(refused);
  const body = JSON.stringify(opts.payload);
  const now = new Date();
  const signature = new Webhook(opts.secret).sign(opts.msgId, now, body);
  const started = Date.now();
  let res: Response;
  try {
    res = await webhookFetcher(env).fetch(opts.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "webhook-id": opts.msgId,
        "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
        "webhook-signature": signature,
      },
      body,
      // A redirect is the receiver's answer, not a new address to call: it could point anywhere, loopback included.
      redirect: "manual",
      signal: AbortSignal.timeout(15_000),
    });
  } catch (err) {
    // The reason names no more than the connection (a refused private address reads the same as a closed port).
    const reason = err instanceof Error && err.name === "TimeoutError" ? "нет ответа за 15 с" : "не удалось соединиться";
    throw new StepError(`${reason}, ${Date.now() - started} мс`, true);
  }
  const { bytes, cut } = await bodySize(res).catch(() => ({ bytes: 0, cut: true }));
  const ms = Date.now() - started;
  return { status: res.status, bytes, ms, line: answerLine(res.status, bytes, cut, ms) };
}

/**
 * The step: a 2xx is delivered; a 3xx fails for good (a redirect is never followed, and retrying will not change
 * where it points); anything else fails and is retried. Each attempt's log line is the answer's status, size, time.
 */
export async function deliverWebhook(
  env: Pick<Env, "WEBHOOK_ALLOW_PRIVATE" | "WEBHOOK_FETCH">,
  opts: { url: string; secret: string; msgId: string; payload: unknown },
): Promise<{ output: { status: number }; log: string }> {
  const answer = await callWebhook(env, opts);
  if (answer.status >= 300 && answer.status < 400) throw new StepError(`${answer.line}: перенаправления не выполняются`);
  if (answer.status < 200 || answer.status >= 300) throw new StepError(answer.line, true);
  return { output: { status: answer.status }, log: answer.line };
}
