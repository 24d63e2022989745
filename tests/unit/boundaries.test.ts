import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The import boundaries `npm run check` enforces (biome.json): lib/, of functions/ and of shared/, lies below the
 * resources and imports none of them. Each case writes a probe file at a path in the tree, lints it as `npm run check` does, and removes it.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const biome = path.join(root, "node_modules/.bin/biome");

function lint(filePath: string, source: string) {
  const probe = path.join(root, filePath.replace(/probe\.ts$/, `boundary-probe-${process.pid}.ts`));
  writeFileSync(probe, source);
  try {
    const r = spawnSync(biome, ["lint", "--colors=off", "--only=style/noRestrictedImports", probe], { cwd: root, encoding: "utf8" });
    return { failed: r.status !== 0, output: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(probe, { force: true });
  }
}

describe("lib/ imports no resource", () => {
  it.each([
    ["functions/lib/probe.ts", 'import { providerSchema } from "../sso/config";\nexport const p = providerSchema;\n'],
    ["functions/lib/probe.ts", 'import type { Env } from "../search/vector-types";\nexport type E = Env;\n'],
    ["functions/lib/storage/probe.ts", 'import { hasPageCookie } from "../../auth/page-session";\nexport const h = hasPageCookie;\n'],
    ["shared/lib/probe.ts", 'import { groupName } from "../groups/schemas";\nexport const g = groupName;\n'],
  ])("%s importing a resource fails the lint", { timeout: 60_000 }, (file, source) => {
    const r = lint(file, source);
    expect(r.failed).toBe(true);
    expect(r.output).toContain("lib/ (of functions/ or shared/) lies below the resources");
  });

  it.each([
    [
      "functions/lib/probe.ts",
      'import { ApiError } from "./errors";\nimport { users } from "../../db/schema";\nexport const u = [ApiError, users];\n',
    ],
    [
      "functions/lib/storage/probe.ts",
      'import type { Env } from "../env";\nimport { storages } from "../../../db/schema";\nexport const s: [Env?, unknown?] = [undefined, storages];\n',
    ],
    ["functions/search/probe.ts", 'import { providerSchema } from "../sso/config";\nexport const p = providerSchema;\n'],
    ["shared/lib/probe.ts", 'import { PAGE_SIZE } from "./constants";\nexport const m = PAGE_SIZE;\n'],
  ])("%s importing lib, the schema or (outside lib) a resource passes", { timeout: 60_000 }, (file, source) => {
    const r = lint(file, source);
    expect(r.output).not.toContain("lib/ (of functions/ or shared/) lies below the resources");
    expect(r.failed, r.output).toBe(false);
  });
});
