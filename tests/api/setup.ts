import { applyD1Migrations, env } from "cloudflare:test";
import { users } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { getDb } from "../../functions/lib/db";
import { fixturePasswordHash } from "../shared/password";
import { forgetAdminSession } from "./fixtures";
import { freshStart } from "./fresh-start";
import { adminCredentials } from "./helpers";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
// Runs before every file: files share a runtime, and each starts from an empty database and bucket. The libSQL layer
// (tests/libsql) runs these files in Node with a database file and a platform of their own, so it needs none of it.
if (!(env as { LIBSQL_URL?: string }).LIBSQL_URL) {
  await freshStart();
  forgetAdminSession();
}

// The admin the Worker would create on its first request (functions/auth/bootstrap.ts), made here with a
// cheap hash so that every test's sign-in is quick; with a user present the Worker creates none.
// first-admin.test.ts removes it to see the Worker's own.
const now = nowSeconds();
await getDb(env)
  .insert(users)
  .values({
    userId: crypto.randomUUID(),
    userName: "Администратор",
    login: adminCredentials.user,
    passwdHash: await fixturePasswordHash(adminCredentials.passwd),
    isAdmin: true,
    ctime: now,
    mtime: now,
  })
  .onConflictDoNothing();
