import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { accessRules, groupMembers, users } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { getDb } from "../../functions/lib/db";
import { api, createUser, login } from "./helpers";

/** Fixtures for groups, users and rules: the API where the behaviour is under test, the database for set-up speed. */

export { VIRTUAL_ROOT_ID as VIRTUAL_ROOT } from "../../shared/lib/constants";
export const db = () => getDb(env);

let counter = 0;
/** A name unique within the run, with Cyrillic so case-folding is exercised everywhere. */
export const uniq = (prefix = "Группа") => `${prefix}-${Date.now().toString(36)}-${++counter}`;

let adminBearer: Promise<string> | undefined;
export const admin = () => (adminBearer ??= login().then((s) => s.bearer));
/** Files share a runtime and this module: the next file's admin signs in again, in its own emptied database. */
export const forgetAdminSession = () => {
  adminBearer = undefined;
};

export interface Call {
  method?: string;
  json?: unknown;
  bearer?: string;
  /** A raw body and headers, for calls that are not JSON (WebDAV). */
  body?: string;
  headers?: Record<string, string>;
}

/** One API call; answers the status, the parsed body and the raw text (for leak checks). */
export async function call(path: string, init: Call = {}) {
  const res = await api(path, {
    method: init.method ?? "GET",
    json: init.json,
    bearer: init.bearer,
    body: init.body,
    headers: init.headers,
  });
  const text = await res.text();
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: res.status, body, text };
}

export async function mkGroup(parent: string, name = uniq(), bearer?: string): Promise<string> {
  const r = await call("/api/group/create", { method: "POST", json: { parent, group_name: name }, bearer: bearer ?? (await admin()) });
  if (r.status !== 200) throw new Error(`create group failed: ${r.status} ${r.text}`);
  return r.body.group_id;
}

export interface Person {
  id: string;
  login: string;
  password: string;
  bearer: string;
}

/** A user, signed in; robots, chroots and disabled accounts are set straight in the table. */
export async function mkPerson(opts: { chroot?: string[]; robot?: boolean; admin?: boolean } = {}): Promise<Person> {
  const loginName = uniq("user").toLowerCase();
  const password = `pw-${loginName}`;
  const id = await createUser({ login: loginName, password, isAdmin: opts.admin });
  if (opts.chroot || opts.robot) {
    await db()
      .update(users)
      .set({ chrootGroups: opts.chroot ?? [], isRobot: opts.robot ?? false })
      .where(eq(users.userId, id));
  }
  const { bearer } = await login({ user: loginName, passwd: password });
  return { id, login: loginName, password, bearer };
}

/** Disables the account the way an admin does (sessions end). */
export async function disable(userId: string) {
  const r = await call(`/api/user/${userId}`, { method: "PATCH", json: { enabled: false }, bearer: await admin() });
  if (r.status !== 200) throw new Error(`disable failed: ${r.status} ${r.text}`);
}

export async function grant(
  subj: string,
  obj: string,
  acl: string[],
  subjType: "user" | "group" = "user",
  objType: "group" | "asset" = "group",
) {
  const ruleId = crypto.randomUUID();
  await db().insert(accessRules).values({ ruleId, subjId: subj, subjType, objId: obj, objType, acl, ctime: nowSeconds() });
  return ruleId;
}

/** Puts an asset id into a group (the assets table is another issue's; membership is enough for the engine). */
export async function placeAsset(groupId: string, assetId: string = crypto.randomUUID()) {
  await db().insert(groupMembers).values({ groupId, elId: assetId, elType: "asset", ctime: nowSeconds() }).onConflictDoNothing();
  return assetId;
}

export async function joinTeam(groupId: string, userId: string) {
  await db().insert(groupMembers).values({ groupId, elId: userId, elType: "user", ctime: nowSeconds() }).onConflictDoNothing();
}

/** Issues a robot's API token through the admin API. */
export async function issueToken(userId: string) {
  const r = await call(`/api/user/${userId}/tokens`, { method: "POST", json: { name: "ci" }, bearer: await admin() });
  if (r.status !== 200) throw new Error(`token failed: ${r.status} ${r.text}`);
  return r.body as { token: string; token_id: string };
}

export async function accessOf(id: string, bearer: string) {
  const r = await call(`/api/auth/entity-access/${id}`, { bearer });
  return r.status === 200 ? (r.body.acl as string[]) : r.status;
}
