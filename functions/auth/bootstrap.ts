import { sql } from "drizzle-orm";
import { events, users } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { configOf } from "../lib/config";
import { getDb } from "../lib/db";
import type { Env } from "../lib/env";
import { newId, randomSecret } from "../lib/ids";
import { hashPassword } from "../lib/password";

let firstAdminChecked: Promise<void> | undefined;

/**
 * On an empty database, creates the first admin: ADMIN_LOGIN (default admin) with ADMIN_PASSWORD,
 * or with a generated password printed once. There is no well-known default password.
 * Checked once per isolate; concurrent isolates race safely on the unique login.
 */
export function ensureFirstAdmin(env: Env): Promise<void> {
  firstAdminChecked ??= createFirstAdmin(env).catch((err) => {
    firstAdminChecked = undefined;
    throw err;
  });
  return firstAdminChecked;
}

async function createFirstAdmin(env: Env) {
  const db = getDb(env);
  if (await db.select({ id: users.userId }).from(users).limit(1).get()) return;
  const login = configOf(env).ADMIN_LOGIN;
  const generated = !env.ADMIN_PASSWORD;
  const password = env.ADMIN_PASSWORD || randomSecret(12);
  const now = nowSeconds();
  const userId = newId();
  // The audit trail says where the password came from, never the password: the event is written only
  // when this isolate's insert won (the fresh id exists), in the same batch.
  const data = { login, is_admin: true, first_admin: true, password: generated ? "generated" : "ADMIN_PASSWORD" };
  const [inserted] = await db.batch([
    db
      .insert(users)
      .values({ userId, userName: "Администратор", login, passwdHash: await hashPassword(password), isAdmin: true, ctime: now, mtime: now })
      .onConflictDoNothing()
      .returning({ id: users.userId }),
    db
      .insert(events)
      .select(
        sql`SELECT ${newId()}, ${now}, NULL, 'user.created', 'user', ${userId}, ${JSON.stringify(data)}, NULL WHERE EXISTS (SELECT 1 FROM users WHERE user_id = ${userId})`,
      ),
  ]);
  if (inserted.length === 0) return;
  // The only place a generated password appears: once, on the operator's terminal.
  console.log(
    generated
      ? `First admin created: login "${login}", password "${password}" (shown once; change it after signing in).`
      : `First admin created: login "${login}", password from ADMIN_PASSWORD.`,
  );
}
