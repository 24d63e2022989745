import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Faults against `npm start` on 127.0.0.1 (docs/decisions/049): the server is killed mid-work and started
// again on the same data. Each test starts its own server; they run one after another.
export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    environment: "node",
    include: ["tests/faults/**/*.test.ts"],
    testTimeout: 600_000,
    hookTimeout: 240_000,
    fileParallelism: false,
  },
});
