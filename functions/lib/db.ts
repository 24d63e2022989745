import { drizzle } from "drizzle-orm/d1";
import * as schema from "../../db/schema";
import type { Env } from "./env";

export type Db = ReturnType<typeof getDb>;

export function getDb(env: Pick<Env, "DB">) {
  return drizzle(env.DB, { schema });
}
