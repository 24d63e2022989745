import { and, desc, eq, isNull } from "drizzle-orm";
import { appPasswords } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { newId, randomSecret, sha256Hex } from "../lib/ids";
import { appPasswordPrefix } from "./auth";

/** App passwords: the caller's own secrets for WebDAV clients and the disk helper (docs/decisions/036-webdav-and-disk-helper.md). */

const maxLive = 20;

export async function listAppPasswords(db: Db, auth: AuthUser) {
  const rows = await db
    .select()
    .from(appPasswords)
    .where(and(eq(appPasswords.userId, auth.userId), isNull(appPasswords.revokedAt)))
    .orderBy(desc(appPasswords.ctime));
  return rows.map((r) => ({ id: r.passwordId, name: r.name, ctime: r.ctime, last_used: r.lastUsed }));
}

/** A new app password; the secret is in this answer only (the table keeps its SHA-256). */
export async function createAppPassword(db: Db, auth: AuthUser, name: string) {
  if ((await listAppPasswords(db, auth)).length >= maxLive)
    throw new ApiError("conflict", `Не больше ${maxLive} паролей приложений: отзовите ненужные`);
  const id = newId();
  const password = `${appPasswordPrefix}${randomSecret(24)}`;
  const now = nowSeconds();
  await db.batch([
    db.insert(appPasswords).values({ passwordId: id, userId: auth.userId, name, secretHash: await sha256Hex(password), ctime: now }),
    eventInsert(db, {
      kind: "auth.app_password_created",
      userId: auth.userId,
      entityType: "user",
      entityId: auth.userId,
      data: { id, name },
    }),
  ]);
  return { id, name, ctime: now, last_used: null, password };
}

/** Revokes one of the caller's own app passwords (another user's is "not found"). */
export async function revokeAppPassword(db: Db, auth: AuthUser, id: string) {
  const [done] = await db.batch([
    db
      .update(appPasswords)
      .set({ revokedAt: nowSeconds() })
      .where(and(eq(appPasswords.passwordId, id), eq(appPasswords.userId, auth.userId), isNull(appPasswords.revokedAt)))
      .returning({ id: appPasswords.passwordId }),
    eventInsert(db, { kind: "auth.app_password_revoked", userId: auth.userId, entityType: "user", entityId: auth.userId, data: { id } }),
  ]);
  if (done.length === 0) throw new ApiError("not_found", "Пароль приложения не найден");
  return { ok: true as const };
}
