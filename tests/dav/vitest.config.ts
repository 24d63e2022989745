import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Real WebDAV clients (litmus, rclone) against `npm start` on 127.0.0.1 (docs/decisions/036-webdav-and-disk-helper.md).
export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    environment: "node",
    include: ["tests/dav/**/*.test.ts"],
    globalSetup: ["tests/dav/global-setup.ts"],
    testTimeout: 300_000,
    hookTimeout: 240_000,
    fileParallelism: false,
  },
});
