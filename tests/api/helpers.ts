import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { users } from "../../db/schema";
import { getDb } from "../../functions/lib/db";
import type { Env } from "../../functions/lib/env";
import { nowSeconds } from "../../db/schema/columns";
import { fixturePasswordHash } from "../shared/password";

export const adminCredentials = { user: "admin", passwd: "admin-test-password" };

let ipCounter = 0;
/** Each caller gets its own address, so one test's failed sign-ins never throttle another's. */
export const freshIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

export interface ApiInit extends RequestInit {
  /** A JSON body (sets Content-Type). */
  json?: unknown;
  bearer?: string;
  /** The caller's address (CF-Connecting-IP); a fresh one by default. */
  ip?: string;
  cookie?: string;
  /** Runs the Worker with this environment instead of the test's (another provider, a weak secret…). */
  env?: Env;
}

/**
 * The one way API tests talk to the Worker (worker.ts, as deployed): `path` is a path on the test origin or
 * a whole URL the Worker handed out (an upload target, a task callback, an https address).
 */
export async function api(path: string, init: ApiInit = {}): Promise<Response> {
  const { json, bearer, ip, cookie, env: otherEnv, ...rest } = init;
  const headers = new Headers(init.headers);
  if (json !== undefined) headers.set("Content-Type", "application/json");
  if (bearer) headers.set("Authorization", `Bearer ${bearer}`);
  if (cookie) headers.set("Cookie", cookie);
  headers.set("CF-Connecting-IP", ip ?? freshIp());
  const url = /^https?:\/\//.test(path) ? path : `http://mam.test${path}`;
  const request = new Request(url, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : init.body });
  if (!otherEnv) return SELF.fetch(request);
  const { default: worker } = await import("../../worker");
  const ctx = createExecutionContext();
  const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, otherEnv, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

export async function login(creds = adminCredentials, ip?: string) {
  const res = await api("/api/auth/login", { method: "POST", json: creds, ip });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { bearer: string; expire: number };
  return { ...body, cookie: refreshCookieOf(res) };
}

/** The `name=value` of the refresh cookie a response sets, ready to send back. */
export function refreshCookieOf(res: Response): string {
  const set = res.headers.getSetCookie().find((c) => c.startsWith("mam_refresh="));
  if (!set) throw new Error("no refresh cookie set");
  return set.split(";")[0];
}

export async function createUser(opts: { login: string; password: string; enabled?: boolean; isAdmin?: boolean }) {
  const now = nowSeconds();
  const userId = crypto.randomUUID();
  await getDb(env)
    .insert(users)
    .values({
      userId,
      userName: opts.login,
      login: opts.login,
      passwdHash: await fixturePasswordHash(opts.password),
      enabled: opts.enabled ?? true,
      isAdmin: opts.isAdmin ?? false,
      ctime: now,
      mtime: now,
    });
  return userId;
}

export async function errorOf(res: Response) {
  const body = (await res.json()) as { error: { code: string; message: string; details?: { field: string }[]; requestId: string } };
  return body.error;
}
