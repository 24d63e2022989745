import { eq } from "drizzle-orm";
import { ssoCodes, users } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { startSession, type ClientMeta, type SignedIn } from "../auth/service";
import type { Db } from "../lib/db";
import type { Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { sha256Hex } from "../lib/ids";

/**
 * POST /api/auth/exchange-token: the one-time code from /login?token=… becomes a session (bearer and
 * refresh cookie), the same kind a password sign-in starts. The row is deleted as it is read, so a code
 * works once; an expired one is refused like a used one.
 */
export async function exchangeCode(db: Db, env: Env, code: string, meta: ClientMeta): Promise<SignedIn> {
  const row = await db
    .delete(ssoCodes)
    .where(eq(ssoCodes.codeHash, await sha256Hex(code)))
    .returning()
    .get();
  const now = nowSeconds();
  if (!row || row.expiresAt < now) throw new ApiError("unauthorized", "Код входа недействителен или истёк, войдите снова");
  // The user may have been disabled in the seconds since the callback.
  const user = await db.select({ enabled: users.enabled }).from(users).where(eq(users.userId, row.userId)).get();
  if (!user?.enabled) throw new ApiError("forbidden", "Учётная запись отключена");
  return startSession(db, env, row.userId, meta, now, { method: "sso", provider: row.provider });
}
