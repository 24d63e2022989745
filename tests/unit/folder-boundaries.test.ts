import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The folder boundaries `npm run check` enforces with dependency-cruiser (.dependency-cruiser.cjs,
 * docs/decisions/067-folder-boundaries.md). Each case writes a probe file at a path in the tree, cruises from it
 * with the project's configuration, as `npm run lint:folders` does for the whole tree, and removes it.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const depcruise = path.join(root, "node_modules/.bin/depcruise");

function cruise(filePath: string, source: string) {
  const probe = filePath.replace("probe", `folder-probe-${process.pid}`);
  writeFileSync(path.join(root, probe), source);
  try {
    const r = spawnSync(depcruise, [probe, "--config", ".dependency-cruiser.cjs", "--output-type", "err-long"], {
      cwd: root,
      encoding: "utf8",
    });
    return { failed: r.status !== 0, output: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(path.join(root, probe), { force: true });
  }
}

describe("resource folders form no cycle", () => {
  it.each([
    // groups already imports tags (groups/common.ts -> tags/of-entity.ts): tags importing groups closes the loop.
    ["functions/tags/probe.ts", 'import { groupName } from "../groups/schemas";\nexport const g = groupName;\n', "functions/tags → "],
    // Through an alias and a type: app/lib/trash-api.ts imports groups' schemas.
    [
      "functions/groups/probe.ts",
      'import type { DeletedGroup } from "~/lib/trash-api";\nexport type D = DeletedGroup;\n',
      "functions/groups → ",
    ],
  ])("%s closing a folder cycle fails the check", { timeout: 60_000 }, (file, source, cycle) => {
    const r = cruise(file, source);
    expect(r.failed).toBe(true);
    expect(r.output).toContain("error no-resource-folder-cycle");
    expect(r.output).toContain(cycle);
    expect(r.output).toContain("The resources under functions/ form no cycle between folders");
  });

  it("an import along the existing order passes", { timeout: 60_000 }, () => {
    const r = cruise(
      "functions/tags/probe.ts",
      'import { ok } from "../auth/schemas";\nimport { idParam } from "../lib/params";\nexport const t = [ok, idParam];\n',
    );
    expect(r.output).not.toContain("no-resource-folder-cycle");
    expect(r.failed, r.output).toBe(false);
  });
});

describe("app/ loads only browser-safe modules of functions/", () => {
  it.each([
    [
      "app/lib/probe.ts",
      'import { getDb } from "../../functions/lib/db";\nexport const g = getDb;\n',
      "app-imports-browser-safe-functions",
    ],
    [
      "functions/tags/probe-schemas.ts",
      'import { getDb } from "../lib/db";\nexport const g = getDb;\n',
      "browser-safe-functions-stay-safe",
    ],
  ])("%s importing server code fails the check", { timeout: 60_000 }, (file, source, rule) => {
    const r = cruise(file, source);
    expect(r.failed).toBe(true);
    expect(r.output).toContain(`error ${rule}`);
    expect(r.output).toContain("functions/lib/db.ts");
  });

  it.each([
    [
      "app/lib/probe.ts",
      'import { groupName } from "../../functions/groups/schemas";\nimport { PAGE_SIZE } from "../../functions/lib/constants";\nexport const a = [groupName, PAGE_SIZE];\n',
    ],
    ["app/lib/probe.server.ts", 'import { getDb } from "../../functions/lib/db";\nexport const g = getDb;\n'],
    [
      "functions/tags/probe-schemas.ts",
      'import type { Db } from "../lib/db";\nimport { idParam } from "../lib/params";\nexport const p: [Db?, unknown?] = [undefined, idParam];\n',
    ],
  ])("%s importing schemas, constants or (a server file) anything passes", { timeout: 60_000 }, (file, source) => {
    const r = cruise(file, source);
    expect(r.failed, r.output).toBe(false);
  });
});
