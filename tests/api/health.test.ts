import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Env } from "../../functions/lib/env";
import { api } from "./helpers";
import { admin, call } from "./fixtures";
import { mkMediaAsset, mkTask } from "./tasks.helpers";

/** GET /api/health: D1 and R2 as before, plus the transcoder's state and the task backlog (decision 044). */

const withTranscoder = (fetch: (req: Request) => Promise<Response>): Env => ({
  ...(env as unknown as Env),
  TRANSCODER: { fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(new Request(input as RequestInfo, init)) } as never,
});

async function healthOf(e?: Env) {
  const res = await api("/api/health", e ? { env: e } : {});
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe("GET /api/health", () => {
  it("keeps its fields and adds the transcoder (off when none is configured) and the backlog", async () => {
    const { status, body } = await healthOf();
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: "ok", d1: "ok", r2: "ok", transcoder: "off" });
    expect(Object.keys(body.queue).sort()).toEqual(["failed", "inqueue", "running"]);
  });

  it("counts waiting, running and failed tasks", async () => {
    const before = (await healthOf()).body.queue;
    const owner = (await call("/api/auth/whoami", { bearer: await admin() })).body.id as string;
    const asset = await mkMediaAsset(null, owner);
    await mkTask(asset, "inqueue");
    await mkTask(asset, "running");
    await mkTask(asset, "error");
    await mkTask(asset, "done");
    const after = (await healthOf()).body.queue;
    expect({
      inqueue: after.inqueue - before.inqueue,
      running: after.running - before.running,
      failed: after.failed - before.failed,
    }).toEqual({
      inqueue: 1,
      running: 1,
      failed: 1,
    });
  });

  it("asks the transcoder's /health: ok when it answers, error when it fails, status stays 200", async () => {
    const asked: string[] = [];
    const up = await healthOf(
      withTranscoder(async (req) => {
        asked.push(new URL(req.url).pathname);
        return Response.json({ ok: true, queued: 0, running: 0 });
      }),
    );
    expect(asked).toEqual(["/health"]);
    expect(up).toMatchObject({ status: 200, body: { status: "ok", transcoder: "ok" } });
    const refused = await healthOf(
      withTranscoder(async () => {
        throw new TypeError("connection refused");
      }),
    );
    expect(refused).toMatchObject({ status: 200, body: { status: "ok", transcoder: "error" } });
    const broken = await healthOf(withTranscoder(async () => new Response("no", { status: 502 })));
    expect(broken.body.transcoder).toBe("error");
  });
});
