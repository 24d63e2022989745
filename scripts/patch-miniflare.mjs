#!/usr/bin/env node
/**
 * Makes Miniflare's local R2 emulation stream bytes natively (docs/decisions/019-local-r2-streams.md); what
 * it stores and answers is unchanged.
 *  - A part upload hashed its bytes with MD5 through a JavaScript TransformStream, two awaits per small chunk; now
 *    the stream is teed natively: one branch goes to the blob store, the other is read a MiB at a time into MD5.
 *  - An object assembled from multipart parts was read through a JavaScript identity stream; now each part's
 *    stream is piped natively, in turn, into the length-fixed stream the binding answers with.
 * Run at postinstall, and again by `npm start` and the test scripts (so `npm ci --ignore-scripts` cannot drop
 * it). Idempotent: an applied patch is left alone. When Miniflare's code is not the text these edits were
 * made for (an upgrade), it fails: exit 1 from start, tests and CI; at a plain local postinstall it warns,
 * so the install itself completes and the next start or test run stops with the same message.
 * Usage: node scripts/patch-miniflare.mjs [--file <bucket.worker.js>]
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const file = path.join(root, "node_modules/miniflare/dist/src/workers/r2/bucket.worker.js");
export const marker = "/* mam: native R2 streams */";

export const edits = [
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

export class PatchMismatch extends Error {
  constructor(missing) {
    super(
      `patch-miniflare: this Miniflare differs from the one the edits were made for (${missing.map((e) => e.what).join("; ")}); update the edits in scripts/patch-miniflare.mjs for it, or pin miniflare back`,
    );
  }
}

/** The patched text, or "already" when it is patched; throws PatchMismatch when an expected text is missing. */
export function patchText(text) {
  if (text.includes(marker)) return "already";
  const missing = edits.filter((e) => text.split(e.from).length !== 2);
  if (missing.length) throw new PatchMismatch(missing);
  for (const e of edits) text = text.replace(e.from, () => e.to);
  return text;
}

/** Patches `target` in place: "applied", "already" or "absent" (Miniflare not installed, e.g. a transcoder-only install). */
export function patchFile(target = file) {
  if (!existsSync(target)) return "absent";
  const out = patchText(readFileSync(target, "utf8"));
  if (out === "already") return out;
  writeFileSync(target, out);
  return "applied";
}

function main() {
  const at = process.argv.indexOf("--file");
  const target = at > 0 ? path.resolve(process.argv[at + 1]) : file;
  // Only a plain local install is let through a mismatch (with a warning): start, tests and CI stop on it.
  const lenient = process.env.npm_lifecycle_event === "postinstall" && !process.env.CI;
  try {
    const result = patchFile(target);
    if (result === "absent")
      console.log(`patch-miniflare: ${path.relative(root, target)} not found (miniflare not installed); nothing to do`);
    else if (result === "applied") console.log("patch-miniflare: local R2 streams bytes natively (docs/decisions/019-local-r2-streams.md)");
  } catch (err) {
    if (!(err instanceof PatchMismatch)) throw err;
    console.error(err.message);
    if (!lenient) process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
