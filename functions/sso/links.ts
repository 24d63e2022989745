import { and, asc, eq } from "drizzle-orm";
import { ssoLinks } from "../../db/schema";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { getUser } from "../users/service";
import { ssoProviders } from "./config";
import type { SsoLink } from "../../shared/sso/schemas";

/** The providers a user is linked to (admins; getUser checks the role and answers 404 for no such user). */
export async function listLinks(db: Db, env: Env, auth: AuthUser, userId: string): Promise<SsoLink[]> {
  await getUser(db, auth, userId);
  const titles = new Map(ssoProviders(env).map((p) => [p.name, p.title]));
  const rows = await db.select().from(ssoLinks).where(eq(ssoLinks.userId, userId)).orderBy(asc(ssoLinks.provider)).all();
  return rows.map((r) => ({
    provider: r.provider,
    title: titles.get(r.provider) ?? r.provider,
    subject: r.subject,
    email: r.email,
    ctime: r.ctime,
    last_login: r.lastLogin,
  }));
}

/**
 * Removes the link: the next sign-in through that provider no longer finds this user (it links by
 * e-mail again only where allowed, or provisions someone new). Sessions already started are kept.
 */
export async function unlink(db: Db, auth: AuthUser, userId: string, provider: string) {
  await getUser(db, auth, userId);
  const [removed] = await db.batch([
    db
      .delete(ssoLinks)
      .where(and(eq(ssoLinks.userId, userId), eq(ssoLinks.provider, provider)))
      .returning({ subject: ssoLinks.subject }),
    eventInsert(db, { kind: "user.sso_unlinked", userId: auth.userId, entityType: "user", entityId: userId, data: { provider } }),
  ]);
  if (removed.length === 0) throw new ApiError("not_found", "Такой привязки нет");
  return { ok: true as const };
}
