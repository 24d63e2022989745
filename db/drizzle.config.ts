import { defineConfig } from "drizzle-kit";

// Migrations are generated here and applied by wrangler (local and remote D1), by the tests
// (applyD1Migrations) and by drizzle's libSQL migrator: never edit one after it lands.
export default defineConfig({
  dialect: "sqlite",
  schema: "./db/schema/index.ts",
  out: "./db/migrations",
});
