import { beforeEach, describe, expect, it, vi } from "vitest";
import { createUploadHandler, type FromWorker } from "../../app/lib/upload-protocol";
import { chooseServer, type Ping } from "../../app/lib/upload-servers";
import { uploadServer } from "./upload-server";

/** Upload servers (docs/decisions/041-upload-servers.md): which one the page picks, and the fallback to the Worker. */

const worker = { id: "worker", url: "http://app/api/ul" };
const near = { id: "near", url: "http://near/api/ul" };
const far = { id: "far", url: "http://far/api/ul" };
const ping = (server: typeof worker, ms: number | null): Ping => ({ server, ms });

describe("choosing a server from the pings", () => {
  it("takes the fastest other server when it clearly beats the Worker", () => {
    expect(chooseServer([ping(worker, 400), ping(near, 40), ping(far, 120)], worker)).toEqual(near);
  });
  it("stays with the Worker when another is only a little faster", () => {
    expect(chooseServer([ping(worker, 60), ping(near, 40)], worker)).toEqual(worker);
  });
  it("skips servers that did not answer, and falls back to the Worker when none did", () => {
    expect(chooseServer([ping(worker, 400), ping(near, null), ping(far, 90)], worker)).toEqual(far);
    expect(chooseServer([ping(worker, null), ping(near, null)], worker)).toEqual(worker);
    expect(chooseServer([ping(worker, null), ping(near, 900)], worker)).toEqual(near);
  });
});

describe("the upload worker with a chosen server", () => {
  let server: ReturnType<typeof uploadServer>;
  /** Routes that reached the other server, and whether it answers. */
  let remote: { up: boolean; calls: string[] };

  beforeEach(() => {
    server = uploadServer();
    remote = { up: true, calls: [] };
    const local = globalThis.fetch;
    // The other server shares the Worker's state (same database): its routes are the Worker's under another origin.
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input);
      if (!url.startsWith("http://near/")) return local(input, init);
      if (!remote.up) throw new TypeError("fetch failed");
      remote.calls.push(`${init.method ?? "GET"} ${url.split("?")[0]}`);
      return local(url.slice("http://near".length), init);
    });
  });

  async function upload(serverUrl: string) {
    const messages: FromWorker[] = [];
    const done = new Promise<void>((resolve) => {
      const handle = createUploadHandler((m) => {
        messages.push(m);
        if (m.type === "uploadCompleted" || m.type === "uploadError") resolve();
      }, "");
      handle({
        type: "startUpload",
        key: "k1",
        file: new Blob(["байты файла"]),
        name: "a.txt",
        mime: "text/plain",
        assetId: "asset-1",
        bearer: "b",
        server: serverUrl,
      });
    });
    await done;
    return messages;
  }

  it("sends the upload protocol to the chosen server", async () => {
    const messages = await upload(near.url);
    expect(messages.at(-1)).toMatchObject({ type: "uploadCompleted", assetId: "asset-1" });
    expect(remote.calls).toEqual(expect.arrayContaining(["POST http://near/api/ul/start", "POST http://near/api/ul/upload-1/complete"]));
    expect(server.calls.filter((c) => c.startsWith("POST /api/ul/")).length).toBeGreaterThan(0);
  });

  it("goes on through the Worker when the chosen server stops answering, and says so", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, advanceTimeDelta: 1000 });
    remote.up = false;
    const messages = await upload(near.url);
    vi.useRealTimers();
    expect(messages).toContainEqual({ type: "serverDown", server: near.url });
    expect(messages.at(-1)).toMatchObject({ type: "uploadCompleted", assetId: "asset-1" });
    expect(server.uploads.get("upload-1")?.state).toBe("completed");
    expect(remote.calls).toEqual([]);
  });
});
