import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { workerApi } from "../../transcoder/worker-api.mjs";

/** How the transcoder reads the Worker's answers to its callbacks (transcoder/worker-api.mjs). */

let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

async function workerAnswering(status: number) {
  server = createServer((_req, res) => {
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ error: { code: "x", message: "m", requestId: "r" } }));
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { id: "t", run: 1, callback: { url: `http://127.0.0.1:${port}/api/task-cb/t`, token: "old-token" } };
}

describe("callback answers", () => {
  it.each([401, 409])("%i stops the job at once (the run is no longer the task's), without retries", async (status) => {
    const api = workerApi(await workerAnswering(status), new AbortController().signal);
    await expect(api.progress({ progress: 1 })).rejects.toMatchObject({ stale: true });
  });

  it("another 4xx is an error, not a stop", async () => {
    const api = workerApi(await workerAnswering(400), new AbortController().signal);
    const err = await api.progress({ progress: 1 }).catch((e: { stale?: boolean }) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as { stale?: boolean }).stale).toBeUndefined();
  });
});
