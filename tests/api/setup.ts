import { applyD1Migrations, env } from "cloudflare:test";
import { users } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { getDb } from "../../functions/lib/db";
import { fixturePasswordHash } from "../shared/password";
import { adminCredentials } from "./helpers";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

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
