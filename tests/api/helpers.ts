import { env, SELF } from "cloudflare:test";
import { users } from "../../db/schema";
import { getDb } from "../../functions/lib/db";
import { nowSeconds } from "../../db/schema/columns";
import { fixturePasswordHash } from "../shared/password";

export const adminCredentials = { user: "admin", passwd: "admin-test-password" };

let ipCounter = 0;
/** Each caller gets its own address, so one test's failed sign-ins never throttle another's. */
export const freshIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

export function api(path: string, init: RequestInit & { json?: unknown; bearer?: string; ip?: string; cookie?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.json !== undefined) headers.set("Content-Type", "application/json");
  if (init.bearer) headers.set("Authorization", `Bearer ${init.bearer}`);
  if (init.cookie) headers.set("Cookie", init.cookie);
  headers.set("CF-Connecting-IP", init.ip ?? freshIp());
  const body = init.json !== undefined ? JSON.stringify(init.json) : init.body;
  return SELF.fetch(`http://mam.test${path}`, { ...init, headers, body });
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
