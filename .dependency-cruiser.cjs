/**
 * Folder boundaries `npm run check` enforces beyond Biome's (docs/decisions/067-folder-boundaries.md):
 * `npm run lint:folders` runs `depcruise functions shared app --config .dependency-cruiser.cjs`.
 * @type {import("dependency-cruiser").IConfiguration}
 */

module.exports = {
  forbidden: [
    {
      name: "no-resource-folder-cycle",
      severity: "error",
      comment:
        "The resources under functions/ and shared/ form no cycle between folders: move the shared piece to the folder that owns it, to functions/lib/ (when it needs only lib and db/schema), or invert the dependency (docs/decisions/067-folder-boundaries.md).",
      scope: "folder",
      from: { path: "^(functions|shared)/[^/]+", pathNot: "^(functions|shared)/lib(/|$)" },
      to: { circular: true },
    },
    {
      name: "app-imports-shared-not-functions",
      severity: "error",
      comment:
        "app/ (but its *.server.ts(x) files, which live in app/server/) imports nothing from functions/ or db/: the browser bundles it. Schemas, route contracts, constants and other pure modules live in shared/; move the piece there, or use it from a *.server.ts file (docs/decisions/072-shared-folder.md).",
      from: { path: "^app/", pathNot: "[.]server[.]tsx?$" },
      to: { path: "^(functions|db)/" },
    },
    {
      name: "server-modules-in-app-server",
      severity: "error",
      comment:
        "app/'s *.server.ts(x) modules, which may call the services, live in app/server/ (but app/entry.server.tsx), not among the components (docs/decisions/072-shared-folder.md).",
      from: { path: "^app/.+[.]server[.]tsx?$", pathNot: "^app/(server/|entry[.]server[.]tsx$)" },
      to: {},
    },
    {
      name: "shared-stays-browser-safe",
      severity: "error",
      comment:
        "shared/ is what the browser and the Worker both load: it imports only shared/ and packages (and db/schema's types), never functions/ or app/ (docs/decisions/072-shared-folder.md).",
      from: { path: "^shared/" },
      to: { path: "^(functions|app)/" },
    },
    {
      name: "shared-takes-only-types-from-db",
      severity: "error",
      comment:
        "shared/ may name db/schema's types (erased from the bundle), never load it: drizzle's tables are server code (docs/decisions/072-shared-folder.md).",
      from: { path: "^shared/" },
      to: { path: "^db/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "shared-imports-no-node",
      severity: "error",
      comment:
        "shared/ is bundled for the browser: no Node modules (node:crypto and the like belong in functions/lib/) (docs/decisions/072-shared-folder.md).",
      from: { path: "^shared/" },
      to: { dependencyTypes: ["core"] },
    },
  ],
  options: {
    // Node's own modules (resolved as `crypto`, `fs/promises`) are kept for shared-imports-no-node.
    includeOnly: "^((functions|shared|app|db)/|[a-z_]+$|[a-z_]+/promises$)",
    exclude: { path: "(^|/)node_modules/" },
    doNotFollow: { path: "(^|/)node_modules/" },
    tsConfig: { fileName: "tsconfig.json" },
    // Type-only imports count, as for Biome's noImportCycles (ignoreTypes: false).
    tsPreCompilationDeps: true,
    skipAnalysisNotInRules: true,
    moduleSystems: ["es6"],
  },
};
