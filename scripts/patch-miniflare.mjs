#!/usr/bin/env node
/**
 * String-match edits of dependencies' built code, each recorded in a decision or beside its edits:
 *  - `r2`: Miniflare's local R2 emulation streams bytes natively (docs/decisions/019-local-r2-streams.md); what it
 *    stores and answers is unchanged.
 *    - A part upload hashed its bytes with MD5 through a JavaScript TransformStream, two awaits per small chunk; now
 *      the stream is teed natively: one branch goes to the blob store, the other is read a MiB at a time into MD5.
 *    - An object assembled from multipart parts was read through a JavaScript identity stream; now each part's
 *      stream is piped natively, in turn, into the length-fixed stream the binding answers with.
 *  - `logs`: Miniflare's objects drop a log line they cannot send to Node instead of throwing (the queue broker
 *    stalled for good on one; see logEdits).
 *  - `testRunner`: the Workers test pool wraps the module runner's transport once, not once more for every test file
 *    a shared runtime runs (docs/decisions/071-api-suite-in-shared-runtimes.md). Tests only.
 * Run at postinstall, and again by `npm start` (r2, logs) and the test scripts (all), so `npm ci --ignore-scripts` cannot
 * drop them. Idempotent: an applied patch is left alone. When the code is not the text these edits were made for
 * (an upgrade), it fails: exit 1 from start, tests and CI; at a plain local postinstall it warns, so the install
 * itself completes and the next start or test run stops with the same message.
 * Usage: node scripts/patch-miniflare.mjs [--file <bucket.worker.js>]   (--file: the r2 patch on that file only)
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const file = path.join(root, "node_modules/miniflare/dist/src/workers/r2/bucket.worker.js");
const marker = "/* mam: native R2 streams */";

const r2Edits = [
  {
    what: "a body may be a function that pipes several native streams into the binding's answer",
    from: "return metadata.pipeTo(identity2.writable, { preventClose: !0 }).then(() => this.body.pipeTo(identity2.writable)), {",
    to: 'return metadata.pipeTo(identity2.writable, { preventClose: !0 }).then(() => typeof this.body == "function" ? this.body(identity2.writable) : this.body.pipeTo(identity2.writable)), {',
  },
  {
    what: "multipart objects are read part by part with native pipes",
    from: `    let identity2 = new TransformStream();
    return (async () => {
      let i = 0;
      try {
        for (; i < requiredParts.length; i++) {
          let { blobId, range } = requiredParts[i], value = await this.blob.get(blobId, range), msg = \`Expected to find blob "\${blobId}" for multipart value\`;
          assert2(value !== null, msg), await value.pipeTo(identity2.writable, { preventClose: !0 }), this.#releaseBlob(blobId);
        }
        await identity2.writable.close();
      } catch (e) {
        await identity2.writable.abort(e);
      } finally {
        for (; i < requiredParts.length; i++)
          this.#releaseBlob(requiredParts[i].blobId);
      }
    })(), identity2.readable;`,
    to: `    ${marker}
    return async (writable) => {
      let i = 0;
      try {
        for (; i < requiredParts.length; i++) {
          let { blobId, range } = requiredParts[i], value = await this.blob.get(blobId, range), msg = \`Expected to find blob "\${blobId}" for multipart value\`;
          assert2(value !== null, msg), await value.pipeTo(writable, { preventClose: !0 }), this.#releaseBlob(blobId);
        }
        await writable.close();
      } catch (e) {
        await writable.abort(e);
      } finally {
        for (; i < requiredParts.length; i++)
          this.#releaseBlob(requiredParts[i].blobId);
      }
    };`,
  },
  {
    what: "a part's MD5 is taken from a native tee of its stream, read a MiB at a time",
    from: `    let digesting = new DigestingStream(["MD5"]), blobId = await this.blob.put(value.pipeThrough(digesting)), md5Digest = (await digesting.digests).get("MD5");`,
    to: `    let [toBlob, toDigest] = value.tee(), md5 = createHash("md5"), digested = (async () => {
      let reader = toDigest.getReader({ mode: "byob" });
      for (;;) {
        let { done, value: chunk } = await reader.readAtLeast(1 << 20, new Uint8Array(1 << 20));
        chunk?.byteLength && md5.update(chunk);
        if (done) break;
      }
    })();
    digested.catch(() => {}); // awaited below; a failed put must not leave it unhandled
    let blobId = await this.blob.put(toBlob);
    await digested;
    let md5Digest = md5.digest();`,
  },
];

const testRunnerMarker = "/* mam: module runner patched once */";

/**
 * Vitest calls `onModuleRunner` for every test file, with the same runner when files share a runtime
 * (`isolate: false`); each call wrapped `transport.invoke` again, so the Nth file's every module fetch went through N
 * nested calls into the runner object and later files ran ever slower. A WeakSet lets each runner be wrapped once, as
 * the package's successor (@cloudflare/vitest-plugin) does.
 */
const testRunnerEdits = [
  {
    what: "a set of the module runners already wrapped",
    from: "let patchedFunction = false;",
    to: `${testRunnerMarker}\nconst patchedModuleRunners = new WeakSet();\nlet patchedFunction = false;`,
  },
  {
    what: "a runner's transport is wrapped only the first time vitest hands it over",
    from: `				const runner = moduleRunner;
				if (runner.transport?.invoke) {`,
    to: `				const runner = moduleRunner;
				if (patchedModuleRunners.has(runner)) return;
				patchedModuleRunners.add(runner);
				if (runner.transport?.invoke) {`,
  },
];

const entrypointMarker = "/* mam: entrypoint prototype proxied once */";

/**
 * The wrapper class behind `SELF` (and each Durable Object's) installed a Proxy over its prototype in its constructor,
 * over the previous one: after N requests a property read ran N nested traps, so every request of a runtime was
 * slower than the one before (a health check 7 ms in a runtime's first file, 280 ms in its seventh). The proxy is
 * installed once, as upstream's fix does (cloudflare/workers-sdk#15092, fixed in #15106, after the version pinned here).
 */
const entrypointEdits = [
  {
    what: "the wrapper class installs its prototype proxy on the first construction only",
    from: `	function Class(...args) {
		Class.prototype = new Proxy(Class.prototype, { get(target, key, receiver) {`,
    to: `	${entrypointMarker}
	let prototypeProxied = false;
	function Class(...args) {
		if (!prototypeProxied) Class.prototype = new Proxy(Class.prototype, { get(target, key, receiver) {`,
  },
  {
    what: "…and remembers that it did",
    from: `		} });
		return Reflect.construct(superClass, args, Class);`,
    to: `		} });
		prototypeProxied = true;
		return Reflect.construct(superClass, args, Class);`,
  },
];

const logMarker = "/* mam: a lost log line stops nothing */";

/**
 * Miniflare's objects (the queue broker, R2, D1) send their log lines to Node over the loopback service. Under load that
 * connection can drop ("disconnected: ::write"), and the fetch throws. The queue broker logs after every batch, before
 * it clears its pending flush: one throw there left the flush pending for ever, and the queue delivered nothing more
 * (every later upload got no tasks). A log line that cannot be sent is dropped instead.
 */
const logEdits = [
  {
    what: "a log line the loopback cannot take is dropped, not thrown",
    from: `  async logWithLevel(level, message) {
    await this.env[SharedBindings.MAYBE_SERVICE_LOOPBACK]?.fetch(
      "http://localhost/core/log",
      {
        method: "POST",
        headers: { [SharedHeaders.LOG_LEVEL]: level.toString() },
        body: message
      }
    );
  }`,
    to: `  async logWithLevel(level, message) {
    ${logMarker}
    try {
      await this.env[SharedBindings.MAYBE_SERVICE_LOOPBACK]?.fetch(
        "http://localhost/core/log",
        {
          method: "POST",
          headers: { [SharedHeaders.LOG_LEVEL]: level.toString() },
          body: message
        }
      );
    } catch {
    }
  }`,
  },
];

/** Each patch: the file it edits, the marker an applied patch leaves, its edits, and what it says once applied. */
export const patches = {
  r2: { file, marker, edits: r2Edits, applied: "local R2 streams bytes natively (docs/decisions/019-local-r2-streams.md)" },
  logs: {
    file: path.join(root, "node_modules/miniflare/dist/src/workers/shared/index.worker.js"),
    marker: logMarker,
    edits: logEdits,
    applied: "Miniflare's objects drop a log line the loopback cannot take (the local queue kept stalling on one)",
  },
  testRunner: {
    file: path.join(root, "node_modules/@cloudflare/vitest-pool-workers/dist/worker/index.mjs"),
    marker: testRunnerMarker,
    edits: testRunnerEdits,
    applied: "the Workers test pool wraps each module runner once (docs/decisions/071-api-suite-in-shared-runtimes.md)",
  },
  testEntrypoints: {
    file: path.join(root, "node_modules/@cloudflare/vitest-pool-workers/dist/worker/lib/cloudflare/test-internal.mjs"),
    marker: entrypointMarker,
    edits: entrypointEdits,
    applied: "the Workers test pool proxies each entrypoint's prototype once (docs/decisions/071-api-suite-in-shared-runtimes.md)",
  },
};

export class PatchMismatch extends Error {
  constructor(target, missing) {
    super(
      `patch-miniflare: ${path.relative(root, target)} differs from the code the edits were made for (${missing.map((e) => e.what).join("; ")}); update the edits in scripts/patch-miniflare.mjs for it, or pin the package back`,
    );
  }
}

/** The patched text, or "already" when it is patched; throws PatchMismatch when an expected text is missing. */
export function patchText(text, patch = patches.r2, target = patch.file) {
  if (text.includes(patch.marker)) return "already";
  const missing = patch.edits.filter((e) => text.split(e.from).length !== 2);
  if (missing.length) throw new PatchMismatch(target, missing);
  for (const e of patch.edits) text = text.replace(e.from, () => e.to);
  return text;
}

/** Patches `target` in place: "applied", "already" or "absent" (the package not installed, e.g. a transcoder-only install). */
export function patchFile(patch = patches.r2, target = patch.file) {
  if (!existsSync(target)) return "absent";
  const out = patchText(readFileSync(target, "utf8"), patch, target);
  if (out === "already") return out;
  writeFileSync(target, out);
  return "applied";
}

function main() {
  const at = process.argv.indexOf("--file");
  const targets =
    at > 0
      ? [{ patch: patches.r2, target: path.resolve(process.argv[at + 1]) }]
      : Object.values(patches).map((p) => ({ patch: p, target: p.file }));
  // Only a plain local install is let through a mismatch (with a warning): start, tests and CI stop on it.
  const lenient = process.env.npm_lifecycle_event === "postinstall" && !process.env.CI;
  let failed = false;
  for (const { patch, target } of targets) {
    try {
      const result = patchFile(patch, target);
      if (result === "absent") console.log(`patch-miniflare: ${path.relative(root, target)} not found (not installed); nothing to do`);
      else if (result === "applied") console.log(`patch-miniflare: ${patch.applied}`);
    } catch (err) {
      if (!(err instanceof PatchMismatch)) throw err;
      console.error(err.message);
      failed = true;
    }
  }
  if (failed && !lenient) process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
