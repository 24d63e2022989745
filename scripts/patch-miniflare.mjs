#!/usr/bin/env node
/**
 * Run by `npm install` / `npm ci` (postinstall). Makes Miniflare's local R2 emulation stream bytes natively
 * (docs/decisions/019-local-r2-streams.md); what it stores and answers is unchanged.
 *  - A part upload hashed its bytes with MD5 through a JavaScript TransformStream, two awaits per small chunk; now
 *    the stream is teed natively: one branch goes to the blob store, the other is read a MiB at a time into MD5.
 *  - An object assembled from multipart parts was read through a JavaScript identity stream; now each part's
 *    stream is piped natively, in turn, into the length-fixed stream the binding answers with.
 * Idempotent. When Miniflare's code is not the one these edits were made for (another version), it says so and
 * leaves the file alone: everything still works, only the local R2 throughput stays where Miniflare has it.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const file = path.join(root, "node_modules/miniflare/dist/src/workers/r2/bucket.worker.js");
const marker = "/* mam: native R2 streams */";

const edits = [
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

if (!existsSync(file)) {
  console.log(`patch-miniflare: ${path.relative(root, file)} not found (miniflare not installed); nothing to do`);
} else {
  let text = readFileSync(file, "utf8");
  if (text.includes(marker)) {
    console.log("patch-miniflare: already applied");
  } else {
    const missing = edits.filter((e) => text.split(e.from).length !== 2);
    if (missing.length) {
      console.warn(`patch-miniflare: this Miniflare differs from the one the edits were made for (${missing.map((e) => e.what).join("; ")}); left as it is`);
    } else {
      for (const e of edits) text = text.replace(e.from, () => e.to);
      writeFileSync(file, text);
      console.log("patch-miniflare: local R2 streams bytes natively (docs/decisions/019-local-r2-streams.md)");
    }
  }
}
