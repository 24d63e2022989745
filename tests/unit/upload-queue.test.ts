import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { clearTokens, setTokens } from "../../app/lib/session";
import { createStore } from "../../app/lib/store";
import { createUploadHandler, type FromWorker, type ToWorker } from "../../app/lib/upload-protocol";
import { UploadQueue, type UploadPort } from "../../app/lib/upload-queue";
import { pendingStore, rememberUpload } from "../../app/lib/upload-resume";
import { isQueueDone, type UploadItem, type UploadStatus } from "../../app/lib/uploads";
import { uploadServer } from "./upload-server";

/**
 * The upload queue (docs/decisions/015-upload-queue.md) with the real worker logic run in-process (messages delivered asynchronously,
 * as postMessage does); only the network is stood in for, by ./upload-server.ts.
 */

type Server = ReturnType<typeof uploadServer>;
let server: Server;
let store: ReturnType<typeof createStore<readonly UploadItem[]>>;
let seen: Map<string, UploadStatus[]>;
let errors: unknown[];

/** The network as the worker sees it: tests switch it off and on. */
const net = {
  up: true,
  wake: [] as (() => void)[],
  online: () => net.up,
  waitOnline: () => new Promise<void>((resolve) => net.wake.push(resolve)),
  goOnline() {
    net.up = true;
    for (const wake of net.wake.splice(0)) wake();
  },
};

function inProcessPort(): UploadPort {
  let listener: (m: FromWorker) => void = () => undefined;
  const handle = createUploadHandler((m) => queueMicrotask(() => listener(m)), "", net);
  return { post: (m: ToWorker) => queueMicrotask(() => handle(m)), listen: (l) => (listener = l) };
}

function makeQueue() {
  return new UploadQueue({ port: inProcessPort, store, onError: (e) => errors.push(e) });
}

const file = (name: string, text = "содержимое") => new File([text], name, { type: "text/plain", lastModified: 1_700_000_000_000 });
const statuses = () => store.get().map((i) => i.status);

beforeEach(() => {
  server = uploadServer();
  store = createStore<readonly UploadItem[]>([]);
  seen = new Map();
  errors = [];
  pendingStore.set([]);
  net.up = true;
  store.subscribe((items) => {
    for (const i of items) {
      const list = seen.get(i.file.name) ?? [];
      if (list.at(-1) !== i.status) list.push(i.status);
      seen.set(i.file.name, list);
    }
  });
});
afterEach(() => vi.unstubAllGlobals());

describe("upload queue", () => {
  it("takes one waiting item at a time and walks each through the statuses to completed", async () => {
    server.hold();
    const queue = makeQueue();
    const uploaded: string[] = [];
    queue.onUploaded("g1", (id) => uploaded.push(id));
    queue.add([file("a.txt"), file("b.txt"), file("c.txt")], "g1");

    await vi.waitFor(() => expect(server.calls.some((c) => c.startsWith("PUT"))).toBe(true));
    expect(statuses()).toEqual(["uploading", "waiting", "waiting"]);
    expect(server.assets.size).toBe(1);
    expect(isQueueDone(store.get())).toBe(false);

    server.release();
    await vi.waitFor(() => expect(statuses()).toEqual(["completed", "completed", "completed"]));
    expect(isQueueDone(store.get())).toBe(true);
    expect(seen.get("a.txt")).toEqual(["waiting", "uploading", "uploaded", "saving", "busy", "completed"]);
    expect([...server.assets.values()].map((a) => [a.name, a.group])).toEqual([
      ["a.txt", "g1"],
      ["b.txt", "g1"],
      ["c.txt", "g1"],
    ]);
    expect(uploaded).toEqual([...server.assets.keys()]);
    expect(server.calls.filter((c) => c.startsWith("GET /api/asset/content-size/"))).toHaveLength(3);
    expect(store.get().every((i) => i.progress === 100)).toBe(true);
  });

  it("drops a waiting item on cancel without touching the server", async () => {
    server.hold();
    const queue = makeQueue();
    const [, second] = queue.add([file("a.txt"), file("b.txt")], "g1");
    queue.cancel(second.key);
    expect(store.get().map((i) => i.file.name)).toEqual(["a.txt"]);
    server.release();
    await vi.waitFor(() => expect(statuses()).toEqual(["completed"]));
    expect(server.assets.size).toBe(1);
  });

  it("cancels an uploading item through the worker, deletes its asset and moves on", async () => {
    server.hold();
    const queue = makeQueue();
    const [first] = queue.add([file("a.txt"), file("b.txt")], "g1");
    await vi.waitFor(() => expect(server.calls.some((c) => c.startsWith("PUT"))).toBe(true));
    const assetId = store.get()[0].assetId!;
    queue.cancel(first.key);
    server.release();

    await vi.waitFor(() => expect(store.get().map((i) => [i.file.name, i.status])).toEqual([["b.txt", "completed"]]));
    expect(server.assets.has(assetId)).toBe(false);
    expect(server.calls).toContain(`DELETE /api/asset/${assetId}`);
    expect(server.calls.some((c) => /^DELETE \/api\/ul\//.test(c))).toBe(true);
  });

  it("marks a cancelled item as error when its asset cannot be deleted", async () => {
    server.hold();
    server.failWith("DELETE /api/asset/:id", [500]);
    const queue = makeQueue();
    const [first] = queue.add([file("a.txt")], "g1");
    await vi.waitFor(() => expect(server.calls.some((c) => c.startsWith("PUT"))).toBe(true));
    queue.cancel(first.key);
    server.release();
    await vi.waitFor(() => expect(statuses()).toEqual(["error"]));
    expect(isQueueDone(store.get())).toBe(true);
    expect(errors).toHaveLength(1);
  });

  it("turns a failed upload into error and goes on with the next item", async () => {
    server.failWith("POST /api/ul/:id/complete", [400]);
    const queue = makeQueue();
    queue.add([file("a.txt"), file("b.txt")], "g1");
    await vi.waitFor(() => expect(statuses()).toEqual(["error", "completed"]));
    expect(isQueueDone(store.get())).toBe(true);
    expect(store.get()[0].error).toBeTruthy();
  });

  it("retries a failing part with backoff", async () => {
    server.failWith("PUT http://files/:id/1", [503, 502]);
    const queue = makeQueue();
    queue.add([file("a.txt")], "g1");
    await vi.waitFor(() => expect(statuses()).toEqual(["completed"]), { timeout: 5000 });
    expect(server.calls.filter((c) => c.startsWith("PUT"))).toHaveLength(3);
  });

  it("waits while offline, then resumes the same upload once the network is back", async () => {
    server.failWith("PUT http://files/:id/1", [0]);
    net.up = false;
    const queue = makeQueue();
    queue.add([file("a.txt"), file("b.txt")], "g1");
    await vi.waitFor(() => expect(net.wake).toHaveLength(1));
    expect(statuses()).toEqual(["uploading", "waiting"]);

    net.goOnline();
    await vi.waitFor(() => expect(statuses()).toEqual(["completed", "completed"]));
    expect(seen.get("a.txt")).toEqual(["waiting", "uploading", "waiting", "uploading", "uploaded", "saving", "busy", "completed"]);
    expect(server.calls.filter((c) => c === "POST /api/ul/start")).toHaveLength(2);
    expect(server.calls.filter((c) => /^GET \/api\/ul\//.test(c))).toHaveLength(1);
    expect(server.assets.size).toBe(2);
  });

  it("gives the worker the session's bearer and a fresh one when the server refuses the old", async () => {
    setTokens({ bearer: "old-bearer", expire: Math.floor(Date.now() / 1000) + 3600 });
    server.failWith("POST /api/ul/:id/targets", [401]);
    const queue = makeQueue();
    queue.add([file("a.txt")], "g1");
    await vi.waitFor(() => expect(statuses()).toEqual(["completed"]));
    clearTokens();

    const auth = (route: RegExp) => server.bearers.filter(([r]) => route.test(r)).map(([, a]) => a);
    expect(auth(/^POST \/api\/ul\/start$/)).toEqual(["Bearer old-bearer"]);
    expect(auth(/\/targets$/)).toEqual(["Bearer old-bearer", "Bearer fresh-bearer"]);
    expect(auth(/\/complete$/)).toEqual(["Bearer fresh-bearer"]);
    expect(server.calls).toContain("GET /api/auth/refresh");
  });

  it("continues a remembered upload when the same file is selected again, sending only the missing parts", async () => {
    const queue = makeQueue();
    const again = file("big.txt", "12345678");
    // An upload from before a reload: parts of 4 bytes, the first already on the server.
    server.uploads.set("upload-77", { asset: "asset-77", size: 8, partSize: 4, parts: new Map([[1, 4]]), state: "active", start: {} });
    server.assets.set("asset-77", { name: "big.txt", group: "g7" });
    rememberUpload({
      uploadId: "upload-77",
      assetId: "asset-77",
      groupId: "g7",
      name: "big.txt",
      size: 8,
      lastModified: again.lastModified,
      mime: "text/plain",
    });

    queue.add([again], "elsewhere");
    await vi.waitFor(() => expect(statuses()).toEqual(["completed"]));
    expect(store.get()[0].groupId).toBe("g7");
    expect(server.calls.filter((c) => c.startsWith("PUT"))).toEqual(["PUT http://files/upload-77/2"]);
    expect(server.calls).not.toContain("POST /api/asset/create");
    expect(pendingStore.get()).toEqual([]);
  });

  it("uploads a new version into an existing asset: no asset is made, and the asset's listeners hear of it", async () => {
    const queue = makeQueue();
    server.assets.set("asset-5", { name: "кадр.png", group: "g1" });
    const heard: string[] = [];
    queue.onAssetUploaded("asset-5", () => heard.push("asset-5"));
    queue.onUploaded("g1", (id) => heard.push(`group:${id}`));
    queue.addInto(file("кадр-2.png"), "g1", "asset-5");

    await vi.waitFor(() => expect(statuses()).toEqual(["completed"]));
    expect(server.calls).not.toContain("POST /api/asset/create");
    const [upload] = server.uploads.values();
    expect(upload.start).toMatchObject({ asset_id: "asset-5", keep_asset: true });
    expect(upload.start.version).toBeUndefined();
    // The group's list already shows the asset: only the viewer of the asset reloads.
    expect(heard).toEqual(["asset-5"]);
  });

  it("sends an extra variant's version, type and name", async () => {
    const queue = makeQueue();
    queue.addInto(file("subs.srt"), "g1", "asset-6", { version: 2, variantType: "untyped", variantName: "Субтитры" });
    await vi.waitFor(() => expect(statuses()).toEqual(["completed"]));
    expect([...server.uploads.values()][0].start).toMatchObject({ version: 2, variant_type: "untyped", variant_name: "Субтитры" });
  });

  it("cancelling an upload into an existing asset aborts the upload and leaves the asset", async () => {
    server.hold();
    const queue = makeQueue();
    server.assets.set("asset-9", { name: "фильм.mp4", group: "g1" });
    const item = queue.addInto(file("фильм-v2.mp4"), "g1", "asset-9");
    await vi.waitFor(() => expect(server.calls.some((c) => c.startsWith("PUT"))).toBe(true));
    queue.cancel(item.key);
    server.release();

    await vi.waitFor(() => expect(store.get()).toEqual([]));
    expect(server.calls.some((c) => /^DELETE \/api\/ul\//.test(c))).toBe(true);
    expect(server.calls).not.toContain("DELETE /api/asset/asset-9");
    expect(server.assets.has("asset-9")).toBe(true);
  });
});
