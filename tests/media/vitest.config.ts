import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Node-side media pipeline tests: `npm start` (Worker in workerd + the real transcoder) with real ffmpeg.
export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    environment: "node",
    include: ["tests/media/**/*.test.ts"],
    globalSetup: ["tests/media/global-setup.ts"],
    testTimeout: 240_000,
    hookTimeout: 240_000,
    fileParallelism: false,
    // One retry, reported in the summary, as in the other over-HTTP layers (decision 060).
    retry: 1,
  },
});
