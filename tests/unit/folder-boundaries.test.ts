import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The folder boundaries `npm run check` enforces with dependency-cruiser (.dependency-cruiser.cjs,
 * docs/decisions/067-folder-boundaries.md, 072-shared-folder.md). Each case writes a probe file at a path in the tree, cruises from it
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
    ["functions/tags/probe.ts", 'import { nameKey } from "../groups/common";\nexport const g = nameKey;\n', "functions/tags → "],
    // Through an alias and a type: app/lib/trash-api.ts imports shared/groups' schemas.
    ["shared/groups/probe.ts", 'import type { DeletedGroup } from "~/lib/trash-api";\nexport type D = DeletedGroup;\n', "shared/groups → "],
  ])("%s closing a folder cycle fails the check", { timeout: 60_000 }, (file, source, cycle) => {
    const r = cruise(file, source);
    expect(r.failed).toBe(true);
    expect(r.output).toContain("error no-resource-folder-cycle");
    expect(r.output).toContain(cycle);
    expect(r.output).toContain("The resources under functions/ and shared/ form no cycle between folders");
  });

  it("an import along the existing order passes", { timeout: 60_000 }, () => {
    const r = cruise(
      "functions/tags/probe.ts",
      'import { ok } from "../../shared/auth/schemas";\nimport { idParam } from "../../shared/lib/params";\nimport { parentPath } from "../lib/paths";\nexport const t = [ok, idParam, parentPath];\n',
    );
    expect(r.output).not.toContain("no-resource-folder-cycle");
    expect(r.failed, r.output).toBe(false);
  });
});

describe("app/ loads only shared/, and shared/ only itself", () => {
  it.each([
    [
      "app/lib/probe.ts",
      'import { getDb } from "../../functions/lib/db";\nexport const g = getDb;\n',
      "app-imports-shared-not-functions",
      "functions/lib/db.ts",
    ],
    // Types count too: what app/ names from functions/ belongs in shared/.
    [
      "app/lib/probe.ts",
      'import type { Db } from "../../functions/lib/db";\nexport type D = Db;\n',
      "app-imports-shared-not-functions",
      "functions/lib/db.ts",
    ],
    [
      "shared/tags/probe-schemas.ts",
      'import { getDb } from "../../functions/lib/db";\nexport const g = getDb;\n',
      "shared-stays-browser-safe",
      "functions/lib/db.ts",
    ],
    [
      "shared/tasks/probe.ts",
      'import { tasks } from "../../db/schema";\nexport const t = tasks;\n',
      "shared-takes-only-types-from-db",
      "db/schema",
    ],
    [
      "shared/lib/probe.ts",
      'import { randomUUID } from "node:crypto";\nexport const id = randomUUID;\n',
      "shared-imports-no-node",
      "node:crypto",
    ],
    [
      "app/components/mam/probe.server.ts",
      'import { getDb } from "../../../functions/lib/db";\nexport const g = getDb;\n',
      "server-modules-in-app-server",
      "functions/lib/db.ts",
    ],
  ])("%s breaking a boundary fails the check (%s)", { timeout: 60_000 }, (file, source, rule, target) => {
    const r = cruise(file, source);
    expect(r.failed).toBe(true);
    expect(r.output).toContain(`error ${rule}`);
    expect(r.output).toContain(target);
  });

  it.each([
    [
      "app/lib/probe.ts",
      'import { groupName } from "../../shared/groups/schemas";\nimport { PAGE_SIZE } from "../../shared/lib/constants";\nexport const a = [groupName, PAGE_SIZE];\n',
    ],
    ["app/server/probe.server.ts", 'import { getDb } from "../../functions/lib/db";\nexport const g = getDb;\n'],
    [
      "shared/tags/probe-schemas.ts",
      'import type { TaskStatus } from "../../db/schema";\nimport { idParam } from "../lib/params";\nexport const p: [TaskStatus?, unknown?] = [undefined, idParam];\n',
    ],
  ])("%s importing shared modules or (a server file in app/server/) anything passes", { timeout: 60_000 }, (file, source) => {
    const r = cruise(file, source);
    expect(r.failed, r.output).toBe(false);
  });
});
