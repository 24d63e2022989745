import { readFileSync } from "node:fs";
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig, type Plugin, runnerImport } from "vite";

const packageVersion: string = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")).version;

// Remix evaluates this file several times in one process (client build, server build, child compiler);
// the build id is kept in the process env so that every pass — and so client, server and version.json — agree.
process.env.MAM_BUILD_ID ||= `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
const buildId = process.env.MAM_BUILD_ID;
const versionJson = JSON.stringify({ version: packageVersion, build: buildId });

/** Writes build/client/version.json (and serves it in dev) so open tabs can notice a new deployment. */
function versionFile(): Plugin {
  let isClientBuild = false;
  return {
    name: "mam-version-json",
    configResolved(config) {
      isClientBuild = config.command === "build" && !config.build.ssr;
    },
    generateBundle() {
      if (isClientBuild) this.emitFile({ type: "asset", fileName: "version.json", source: versionJson });
    },
    configureServer(server) {
      server.middlewares.use("/version.json", (_req, res) => {
        res.setHeader("Content-Type", "application/json");
        res.setHeader("Cache-Control", "no-store");
        res.end(versionJson);
      });
    },
  };
}

type RouteShape = { method: string; path: string; security?: unknown[] };

/**
 * The browser's copy of the route contracts (shared/<resource>/contract.ts, docs/decisions/070-route-contracts.md).
 * call() reads only a route's method, path and `security`; the zod schemas in the definition are for the server
 * and for the typecheck. So the client build gets a module of those three fields per route, taken from the real
 * definitions (loaded in Node), and no page bundles zod or a resource's schemas for its calls alone.
 */
function routeContractsForTheBrowser(): Plugin {
  return {
    name: "mam-route-contracts",
    enforce: "pre",
    async load(id, options) {
      if (options?.ssr || !/\/shared\/[^/]+\/contract\.ts$/.test(id)) return;
      const { module, dependencies } = await runnerImport<Record<string, RouteShape>>(id);
      for (const file of dependencies) this.addWatchFile(file);
      return Object.entries(module)
        .map(([name, { method, path, security }]) => `export const ${name} = ${JSON.stringify({ method, path, security })};`)
        .join("\n");
    },
  };
}

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * The browser's packages in one chunk ("vendor"): React, Remix's router and Mantine with their small helpers.
 * Split the way Rollup does by default, a page imported a hundred files (106 on the group screen), and each
 * request costs the browser, the network stack and a test's browser driver far more than the bytes do.
 * Packages that only some screens use stay in chunks of their own: the editor's CodeMirror, the error
 * reporter (loaded only with a DSN), zod (with the forms). docs/decisions/060.
 */
const pageOnlyPackages =
  /^(@sentry|@codemirror|@lezer|codemirror|style-mod|crelt|w3c-keyname|@marijn|zod|mantine-form-zod-resolver|web-vitals)(\/|$)/;
function browserChunk(id: string): string | undefined {
  const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(id)?.[1];
  if (pkg && !pageOnlyPackages.test(pkg)) return "vendor";
}

export default defineConfig(({ isSsrBuild }) => ({
  define: {
    __BUILD_ID__: JSON.stringify(buildId),
    __APP_VERSION__: JSON.stringify(packageVersion),
  },
  plugins: [
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        // The whole route manifest (7 KB gzipped) comes with the first page. Discovered lazily, every page's links
        // made the Worker match their paths against the route tree per request (/__manifest): a quarter of its CPU
        // in the browser tests, and 11 % of their whole CPU (docs/decisions/060).
        v3_lazyRouteDiscovery: false,
      },
    }),
    versionFile(),
    routeContractsForTheBrowser(),
  ],
  // The server build runs inside workerd (Workers), not Node: bundle everything, prefer worker/browser builds.
  ssr: {
    target: "webworker",
    noExternal: true,
    resolve: {
      conditions: ["workerd", "worker", "browser"],
      externalConditions: ["workerd", "worker"],
    },
  },
  resolve: {
    mainFields: ["browser", "module", "main"],
  },
  build: {
    minify: true,
    // Small chunks are merged where that changes no module's order (Rollup's experimentalMinChunkSize).
    rollupOptions: isSsrBuild ? {} : { output: { manualChunks: browserChunk, experimentalMinChunkSize: 20_000 } },
  },
  server: {
    // `remix vite:dev` serves only the UI; the API comes from a running `npm start` (workerd).
    proxy: { "/api": process.env.MAM_API_URL ?? "http://127.0.0.1:8787" },
  },
}));
