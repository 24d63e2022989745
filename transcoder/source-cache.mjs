/**
 * One download per source for all the tasks of a file (a video's metadata, preview and two proxies read
 * the same bytes): the first job that needs a source fetches it into the cache directory, hashing it
 * on the way, and every job with the same key shares that file. The Worker names the source by
 * asset/version/variant/etag (`job.source.key`), so another variant or new bytes are another entry.
 * The queue drops an entry when it holds no more jobs for that key (server.mjs); a restart starts
 * with an empty cache, since the journal re-runs those jobs from the beginning anyway.
 */
import { createHash } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { rename, rm } from "node:fs/promises";
import path from "node:path";

/** @typedef {ReturnType<typeof createSourceCache>} SourceCache */

/** @param {{ dir: string }} options */
export function createSourceCache({ dir }) {
  rmSync(dir, { recursive: true, force: true }); // files of a previous process: nobody holds them
  mkdirSync(dir, { recursive: true });
  /** key → { file, controller, ready: Promise<{ file, sha256 }> } */
  const entries = new Map();
  const fileFor = (key) => path.join(dir, createHash("sha256").update(key).digest("hex").slice(0, 32));

  /** Drops an entry: stops its download if one runs and deletes the file (a job still reading it keeps its open handle). */
  function drop(key) {
    const e = entries.get(key);
    if (!e) return;
    entries.delete(key);
    e.controller.abort();
    rm(e.file, { force: true }).catch(() => {});
  }

  return {
    /**
     * The cached source for `key`, downloaded with `download(file, signal)` (→ sha256) if no job has
     * yet. The download belongs to the cache, not to the job that started it: pausing that job does
     * not stop it for the others; each job only stops waiting on its own `signal`. A failed download
     * leaves no entry, so the next job tries again.
     */
    get(key, download, signal) {
      let e = entries.get(key);
      if (!e) {
        const file = fileFor(key);
        const controller = new AbortController();
        e = { file, controller };
        const partial = `${file}.part`;
        e.ready = download(partial, controller.signal).then(
          async (sha256) => {
            await rename(partial, file);
            if (entries.get(key) !== e) await rm(file, { force: true }); // dropped while downloading
            return { file, sha256 };
          },
          async (err) => {
            if (entries.get(key) === e) entries.delete(key);
            await rm(partial, { force: true });
            throw err;
          },
        );
        e.ready.catch(() => {}); // a waiter may have gone: the failure still reaches every other waiter
        entries.set(key, e);
      }
      return untilAborted(e.ready, signal);
    },
    drop,
    keys: () => [...entries.keys()],
  };
}

function untilAborted(promise, signal) {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(Object.assign(new Error("aborted"), { aborted: true }));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(Object.assign(new Error("aborted"), { aborted: true }));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
