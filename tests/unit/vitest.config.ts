import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Node-side unit tests of the front end's plain modules (formatting, guard rules, API client).
export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  define: {
    __BUILD_ID__: JSON.stringify("test-build"),
    __APP_VERSION__: JSON.stringify("0.0.0-test"),
  },
  test: {
    environment: "node",
    include: ["tests/unit/**/*.test.ts"],
    // The files share their workers' module graph instead of each loading its own: 33 → 19 CPU s for the layer.
    // Globals a test stubs (fetch) go back after it, so they do not reach the next file.
    isolate: false,
    unstubGlobals: true,
  },
});
