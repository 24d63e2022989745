import { and, eq, sql } from "drizzle-orm";
import { ssoLinks, users } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import { eventInsert } from "../lib/events";
import { newId, randomSecret } from "../lib/ids";
import { allowlistRefusal, claimGrantsAdmin, verifiedEmail, type SsoProviderConfig } from "./config";
import { SsoFailure, type IdClaims } from "./oidc";

/**
 * Who a validated ID token signs in, once the provider's allowlist lets it: the user linked to
 * (provider, sub); else, only where the operator allowed it, the non-admin user whose login is the
 * verified e-mail; else a new enabled user, admin only when admin_claim says so
 * (docs/decisions/012-single-sign-on.md, 023-sign-in-hardening-and-keys.md).
 */
export async function resolveUser(db: Db, provider: SsoProviderConfig, claims: IdClaims): Promise<string> {
  const now = nowSeconds();
  // Refused before anything is looked up or written: no user, no link.
  const refusal = allowlistRefusal(provider, claims);
  if (refusal) throw new SsoFailure("not_allowed", refusal);
  const email = typeof claims.email === "string" ? claims.email.trim() : null;
  const verified = verifiedEmail(claims);
  const linked = await db
    .select({ userId: users.userId, enabled: users.enabled })
    .from(ssoLinks)
    .innerJoin(users, eq(users.userId, ssoLinks.userId))
    .where(and(eq(ssoLinks.provider, provider.name), eq(ssoLinks.subject, claims.sub)))
    .get();
  if (linked) {
    if (!linked.enabled) throw new SsoFailure("disabled", linked.userId);
    await db
      .update(ssoLinks)
      .set({ lastLogin: now, email })
      .where(and(eq(ssoLinks.provider, provider.name), eq(ssoLinks.subject, claims.sub)));
    return linked.userId;
  }

  // Only a provider that vouches for the address (email_verified true) may claim an existing account,
  // and never an admin's: whoever controls the address at the provider would hold the installation.
  if (provider.linkByEmail && verified) {
    const existing = await db
      .select({ userId: users.userId, enabled: users.enabled, isRobot: users.isRobot, isAdmin: users.isAdmin })
      .from(users)
      .where(eq(sql`lower(${users.login})`, verified))
      .get();
    if (existing && !existing.isRobot) {
      if (existing.isAdmin) throw new SsoFailure("admin_by_email", existing.userId);
      if (!existing.enabled) throw new SsoFailure("disabled", existing.userId);
      await db.batch([
        db
          .insert(ssoLinks)
          .values({ provider: provider.name, subject: claims.sub, userId: existing.userId, email, ctime: now, lastLogin: now }),
        eventInsert(db, {
          kind: "user.sso_linked",
          userId: existing.userId,
          entityType: "user",
          entityId: existing.userId,
          data: { provider: provider.name, by: "email" },
        }),
      ]);
      return existing.userId;
    }
  }

  const userId = newId();
  const login = await freeLogin(db, provider, claims.sub, verified);
  const isAdmin = claimGrantsAdmin(claims, provider.adminClaim);
  await db.batch([
    db.insert(users).values({
      userId,
      // A display name, not an identity: the unverified name claims may fill it.
      userName:
        (typeof claims.name === "string" && claims.name.trim()) ||
        (typeof claims.preferred_username === "string" && claims.preferred_username.trim()) ||
        login,
      login,
      passwdHash: null,
      enabled: true,
      isAdmin,
      ctime: now,
      mtime: now,
    }),
    db.insert(ssoLinks).values({ provider: provider.name, subject: claims.sub, userId, email, ctime: now, lastLogin: now }),
    eventInsert(db, {
      kind: "user.created",
      userId,
      entityType: "user",
      entityId: userId,
      data: { login, sso: provider.name, is_admin: isAdmin },
    }),
  ]);
  return userId;
}

/**
 * The verified e-mail, else provider-sub: never preferred_username or an unverified address, which the
 * person may choose freely (someone else's address as a login would later be linked by e-mail, and
 * would read as that person in every list). A taken login gets the provider's name, then a random tail.
 */
async function freeLogin(db: Db, provider: SsoProviderConfig, sub: string, verified: string | null): Promise<string> {
  const base = (verified ?? `${provider.name}-${sub}`).slice(0, 150);
  for (const candidate of [base, `${base}-${provider.name}`, `${base}-${randomSecret(4).toLowerCase()}`]) {
    const taken = await db
      .select({ id: users.userId })
      .from(users)
      .where(eq(sql`lower(${users.login})`, candidate.toLowerCase()))
      .get();
    if (!taken) return candidate;
  }
  return `${base}-${newId()}`;
}
