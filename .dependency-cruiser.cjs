/**
 * Folder boundaries `npm run check` enforces beyond Biome's (docs/decisions/067-folder-boundaries.md):
 * `npm run lint:folders` runs `depcruise functions app --config .dependency-cruiser.cjs`.
 * @type {import("dependency-cruiser").IConfiguration}
 */

/** What the browser may load from functions/: zod schemas, route definitions (contract.ts) and constants, no server imports (db, env, crypto). */
const browserSafe = [
  "^functions/[^/]+/[^/]*schemas[.]ts$",
  "^functions/[^/]+/contract[.]ts$",
  "^functions/lib/(constants|encoding|mime|params|permissions|route-contract|upload-server)[.]ts$",
  // Pure modules app/ imports today under other names; each would move into a schemas file or lib to leave this list.
  "^functions/tags/tag-ref[.]ts$",
  "^functions/assets/variant-rights[.]ts$",
  "^functions/lib/(return-path|scrub|served-bytes)[.]ts$",
  "^functions/review/timecode[.]ts$",
  "^functions/shop/transitions[.]ts$",
  "^functions/sl/password-rule[.]ts$",
  "^functions/tasks/transitions[.]ts$",
];

module.exports = {
  forbidden: [
    {
      name: "no-resource-folder-cycle",
      severity: "error",
      comment:
        "The resources under functions/ form no cycle between folders: move the shared piece to the folder that owns it, to functions/lib/ (when it needs only lib and db/schema), or invert the dependency (docs/decisions/067-folder-boundaries.md).",
      scope: "folder",
      from: { path: "^functions/[^/]+", pathNot: "^functions/lib(/|$)" },
      to: { circular: true },
    },
    {
      name: "app-imports-browser-safe-functions",
      severity: "error",
      comment:
        "app/ (but its *.server.ts files) imports from functions/ only browser-safe modules: schemas, lib constants, permissions, mime, encoding (the list in .dependency-cruiser.cjs; docs/decisions/067-folder-boundaries.md). Use it from a *.server.ts file, or move the browser-safe part into a schemas file.",
      from: { path: "^app/", pathNot: "[.]server[.]tsx?$" },
      to: { path: "^functions/", pathNot: browserSafe },
    },
    {
      name: "browser-safe-functions-stay-safe",
      severity: "error",
      comment:
        "A browser-safe module of functions/ (the list in .dependency-cruiser.cjs) imports only others of that list, or types: the front end bundles it (docs/decisions/067-folder-boundaries.md).",
      from: { path: browserSafe },
      to: { path: "^(functions|db)/", pathNot: browserSafe, dependencyTypesNot: ["type-only"] },
    },
  ],
  options: {
    includeOnly: "^(functions|app|db)/",
    exclude: { path: "(^|/)node_modules/" },
    doNotFollow: { path: "(^|/)node_modules/" },
    tsConfig: { fileName: "tsconfig.json" },
    // Type-only imports count, as for Biome's noImportCycles (ignoreTypes: false).
    tsPreCompilationDeps: true,
    skipAnalysisNotInRules: true,
    moduleSystems: ["es6"],
  },
};
