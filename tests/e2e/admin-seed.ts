import { fixturePasswordHash } from "../shared/password";

/**
 * The browser tests' admin, put into the fresh database before the Worker's first request (start.mjs runs
 * it as MAM_SEED_SQL), with a cheap hash so that every test's sign-in is quick. The Worker then finds a
 * user and creates no first admin of its own (functions/auth/bootstrap.ts).
 */
export async function adminSeedSql(login: string, password: string) {
  const hash = await fixturePasswordHash(password);
  return (
    "INSERT INTO users (user_id, user_name, login, passwd_hash, is_admin, ctime, mtime) " +
    `VALUES ('${crypto.randomUUID()}', 'Администратор', '${login}', '${hash}', 1, unixepoch(), unixepoch())`
  );
}
