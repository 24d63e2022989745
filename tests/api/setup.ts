import * as platform from "cloudflare:test";
import { applyD1Migrations, env } from "cloudflare:test";
import { users } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { getDb } from "../../functions/lib/db";
import { fixturePasswordHash } from "../shared/password";
import { forgetAdminSession } from "./fixtures";
import { freshStart } from "./fresh-start";
import { adminCredentials } from "./helpers";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
// Runs before every file: files share a runtime (in the libSQL layer, tests/libsql, a Node process), and each starts
// from an empty database and bucket. There the Worker's metadata store is the libSQL file, not env.DB.
await freshStart((platform as { metadataDatabase?: D1Database }).metadataDatabase ?? env.DB);
forgetAdminSession();

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
