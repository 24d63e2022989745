import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { patches, patchFile, patchText } from "../../scripts/patch-miniflare.mjs";

const { edits, marker } = patches.r2;

/**
 * The local R2 speed-up edits Miniflare's built code by string match (scripts/patch-miniflare.mjs): it
 * applies, re-applies as a no-op, and refuses loudly (exit 1) when the upstream text changed. The test pool's edit
 * goes through the same code.
 */

type Edit = { from: string; to: string };
const upstream = (edits as Edit[]).map((e, i) => `// part ${i}\n${e.from}\n`).join("");
const script = path.resolve("scripts/patch-miniflare.mjs");

function fakeBucketWorker(text: string) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "patch-mf-")), "bucket.worker.js");
  writeFileSync(file, text);
  return file;
}

const run = (file: string, env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [script, "--file", file], {
    encoding: "utf8",
    env: { ...process.env, CI: "", npm_lifecycle_event: "", ...env },
  });

describe("patch-miniflare", () => {
  it("applies every edit to the text it was made for", () => {
    const file = fakeBucketWorker(upstream);
    expect(patchFile(patches.r2, file)).toBe("applied");
    const text = readFileSync(file, "utf8");
    expect(text).toContain(marker);
    for (const e of edits as Edit[]) {
      expect(text).toContain(e.to.replace(`${marker}\n`, "").trim().split("\n")[0]);
      expect(text).not.toContain(e.from);
    }
  });

  it("is idempotent: an applied patch is left as it is", () => {
    const file = fakeBucketWorker(upstream);
    patchFile(patches.r2, file);
    const once = readFileSync(file, "utf8");
    expect(patchFile(patches.r2, file)).toBe("already");
    expect(run(file).status).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(once);
  });

  it("fails with exit 1 and leaves the file alone when the upstream text changed", () => {
    const changed = upstream.replace("identity2.writable", "identity3.writable");
    const file = fakeBucketWorker(changed);
    expect(() => patchFile(patches.r2, file)).toThrow(/differs from the code the edits were made for/);
    const res = run(file);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain("patch-miniflare");
    expect(readFileSync(file, "utf8")).toBe(changed);
    // In CI even the install step stops; only a plain local install warns and completes.
    expect(run(file, { npm_lifecycle_event: "postinstall", CI: "true" }).status).toBe(1);
    expect(run(file, { npm_lifecycle_event: "postinstall" }).status).toBe(0);
  });

  it("drops a log line the loopback cannot take, where it threw before (the local queue stalled on one)", async () => {
    const method = (patches.logs.edits as Edit[])[0].from;
    // The method in a class of its own, with the names it reads from the bundle around it.
    const classOf = (body: string) =>
      new Function("SharedBindings", "SharedHeaders", `return class { constructor(env) { this.env = env; }\n${body}\n}`)(
        { MAYBE_SERVICE_LOOPBACK: "loopback" },
        { LOG_LEVEL: "level" },
      );
    const env = {
      loopback: {
        fetch: async () => {
          throw new Error("disconnected");
        },
      },
    };
    await expect(new (classOf(method))(env).logWithLevel(1, "batch done")).rejects.toThrow("disconnected");
    const patched = patchText(method, patches.logs);
    expect(patched).toContain(patches.logs.marker);
    await expect(new (classOf(patched))(env).logWithLevel(1, "batch done")).resolves.toBeUndefined();
    expect(patchText(patched, patches.logs)).toBe("already");
  });

  it("wraps the test pool's module runner once: a second file on the same runner leaves it as it is", () => {
    const { edits: runnerEdits, marker: runnerMarker } = patches.testRunner;
    const text = patchText((runnerEdits as Edit[]).map((e) => e.from).join("\n"), patches.testRunner);
    expect(text).toContain(runnerMarker);
    expect(text).toContain("if (patchedModuleRunners.has(runner)) return;");
    expect(patchText(text, patches.testRunner)).toBe("already");
  });

  it("proxies the test pool's entrypoint prototype once: later constructions keep that prototype", () => {
    const { edits: proxyEdits } = patches.testEntrypoints;
    // The function the pool ships, with only what it needs around it.
    const trap = [
      "\t\t\tconst value = Reflect.get(target, key, receiver);",
      "\t\t\tif (value !== void 0) return value;",
      '\t\t\tif (typeof key === "symbol" || IGNORED_KEYS.includes(key)) return;',
      "\t\t\treturn getUnknownPrototypeKey.call(receiver, key);",
    ].join("\n");
    const source = [
      'const IGNORED_KEYS = ["self"];',
      "function createProxyPrototypeClass(superClass, getUnknownPrototypeKey) {",
      (proxyEdits as Edit[]).map((e) => e.from).join(`\n${trap}\n`),
      "\t}",
      "\tReflect.setPrototypeOf(Class.prototype, superClass.prototype);",
      "\tReflect.setPrototypeOf(Class, superClass);",
      "\treturn Class;",
      "}",
      "return createProxyPrototypeClass;",
    ].join("\n");
    type Wrapper = { new (): Record<string, unknown>; prototype: object };
    const prototypes = (text: string) => {
      const make = new Function(text)() as (superClass: unknown, unknownKey: (key: string) => unknown) => Wrapper;
      const Wrapper = make(class {}, (key) => `rpc:${key}`);
      const first = new Wrapper();
      const afterFirst = Wrapper.prototype;
      for (let i = 0; i < 100; i++) new Wrapper();
      expect(first.someMethod).toBe("rpc:someMethod");
      return { afterFirst, afterMany: Wrapper.prototype };
    };
    const upstream = prototypes(source);
    expect(upstream.afterMany).not.toBe(upstream.afterFirst);
    const patched = prototypes(patchText(source, patches.testEntrypoints) as string);
    expect(patched.afterMany).toBe(patched.afterFirst);
  });
});
