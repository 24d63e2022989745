import { and, eq, inArray, sql } from "drizzle-orm";
import { assets, users, variants } from "../../db/schema";
import { accessContext, entityAccess, notFound, permissionsOn, resolveObjects } from "../lib/access";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { sendMail } from "../lib/mail";
import type { Permission } from "../../shared/lib/permissions";
import { idList } from "../lib/sql";
import { ownerAuth } from "../lib/owner";
import { type Rate, rateOfTech } from "../../shared/review/timecode";

/** The caller's rights on an asset: not_found when it cannot read it (or it is not an asset), like a missing one. */
export async function assetPerms(db: Db, auth: AuthUser, assetId: string): Promise<Permission[]> {
  const { obj, perms } = await entityAccess(db, auth, assetId);
  if (obj.type !== "asset") throw notFound();
  return perms;
}

/**
 * The version's playback rate: its proxy's (the viewer plays the proxy), else any of its variants' that knows one;
 * null before anything was probed.
 */
export async function versionRate(db: Db, assetId: string, version: number): Promise<Rate | null> {
  const rows = await db
    .select({ type: variants.variantType, tech: variants.techProps })
    .from(variants)
    .where(and(eq(variants.assetId, assetId), eq(variants.version, version)));
  const proxyFirst = [...rows].sort((a, b) => Number(b.type.startsWith("proxy")) - Number(a.type.startsWith("proxy")));
  for (const r of proxyFirst) {
    const rate = rateOfTech(r.tech ?? {});
    if (rate) return rate;
  }
  return null;
}

/**
 * The version's page count when it is a PDF and the technical metadata job has counted its pages (the transcoder's
 * `pages` of a PDF variant, the proxy's first as the viewer shows it); null otherwise. Images may carry `pages` too
 * (a multi-page TIFF), which are no PDF pages, so only PDF variants count.
 */
export async function versionPages(db: Db, assetId: string, version: number): Promise<number | null> {
  const rows = await db
    .select({ type: variants.variantType, tech: variants.techProps })
    .from(variants)
    .where(and(eq(variants.assetId, assetId), eq(variants.version, version), eq(variants.mimeType, "application/pdf")));
  const proxyFirst = [...rows].sort((a, b) => Number(b.type.startsWith("proxy")) - Number(a.type.startsWith("proxy")));
  for (const r of proxyFirst) {
    const pages = r.tech?.pages;
    if (typeof pages === "number" && Number.isInteger(pages) && pages >= 1) return pages;
  }
  return null;
}

export async function assetName(db: Db, assetId: string): Promise<string> {
  const row = await db.select({ name: assets.name }).from(assets).where(eq(assets.assetId, assetId)).get();
  return row?.name ?? "";
}

/** Display names of users by id (deleted users are missing from the map). */
export async function userNames(db: Db, ids: string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return new Map();
  const rows = await db
    .select({ id: users.userId, name: users.userName })
    .from(users)
    .where(inArray(users.userId, idList(wanted)));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Enabled users by lower-cased login. */
export async function usersByLogin(db: Db, logins: string[]) {
  const wanted = [...new Set(logins.map((l) => l.toLowerCase()))];
  if (!wanted.length) return [];
  return db
    .select({ userId: users.userId, login: users.login, name: users.userName })
    .from(users)
    .where(and(sql`lower(${users.login}) IN ${idList(wanted)}`, eq(users.enabled, true)));
}

const address = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Mails users whose login is an e-mail address (accounts hold no other address; SSO logins usually are one),
 * through the one mail path. Answers how many were mailed; never throws (a failed mail never fails the change).
 */
export async function mailUsers(env: Env, logins: string[], subject: string, text: string): Promise<number> {
  const to = logins.filter((l) => address.test(l));
  if (!to.length) return 0;
  const results = await sendMail(env, to, subject, text, text);
  return results.filter((r) => r.ok).length;
}

/** Those of `userIds` (enabled users) who may read the asset now, with their rights on it. */
export async function readersOf(db: Db, userIds: string[], assetId: string): Promise<Map<string, Permission[]>> {
  const out = new Map<string, Permission[]>();
  const obj = (await resolveObjects(db, [assetId])).get(assetId);
  if (!obj) return out;
  for (const id of new Set(userIds)) {
    const user = await ownerAuth(db, id);
    const perms = user && permissionsOn(await accessContext(db, user), obj);
    if (perms) out.set(id, perms);
  }
  return out;
}
