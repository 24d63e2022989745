import { adminOnly, onShared, open, signedIn, type RouteCase, type World } from "./types";
import { mkMediaAsset, mkTask, T } from "../tasks.helpers";
import { db } from "../fixtures";
import { taskTemplates } from "../../../db/schema";

/** /api/tasklist and the transcoder's callbacks. Tasks sit on an asset in S; mutating calls get a fresh task. */

const assets = new Map<string, Promise<{ assetId: string; variantId: string; name: string }>>();
const assetIn = (w: World) => {
  if (!assets.has(w.shared.id)) assets.set(w.shared.id, mkMediaAsset(w.shared.id, w.users.admin.id, { name: `${w.tag} клип.mp4` }));
  return assets.get(w.shared.id)!;
};
const task = async (w: World, status: Parameters<typeof mkTask>[1] = "running") => mkTask(await assetIn(w), status);
const shared =
  (path: (id: string) => string, method = "GET", json?: unknown) =>
  async (w: World) => ({ method, path: path(await task(w)), json });
const bogusCallback =
  (suffix: string, json?: unknown, method = "POST") =>
  async (w: World) => ({ method, path: `/api/task-cb/${await task(w)}/${suffix}`, json });

export const taskCases: RouteCase[] = [
  {
    route: "GET /api/tasklist/current",
    request: () => ({ path: "/api/tasklist/current?status=inqueue,running&take=10" }),
    expect: signedIn(200),
  },
  { route: "GET /api/tasklist/current/count", request: () => ({ path: "/api/tasklist/current/count" }), expect: signedIn(200) },
  { route: "GET /api/tasklist/names", request: () => ({ path: "/api/tasklist/names" }), expect: signedIn(200) },
  {
    route: "POST /api/tasklist/task-status",
    request: async (w) => ({ method: "POST", path: "/api/tasklist/task-status", json: { ids: [await task(w)] } }),
    expect: signedIn(200),
  },
  { route: "GET /api/tasklist/task/:id", request: shared((id) => `/api/tasklist/task/${id}`), expect: onShared(200, 200) },
  { route: "GET /api/tasklist/task-result/:id", request: shared((id) => `/api/tasklist/task-result/${id}`), expect: onShared(200, 200) },
  {
    route: "GET /api/tasklist/task-commands/:id",
    request: shared((id) => `/api/tasklist/task-commands/${id}`),
    expect: onShared(200, 200),
  },
  { route: "GET /api/tasklist/log/:id", request: shared((id) => `/api/tasklist/log/${id}`), expect: onShared(200, 200) },
  {
    route: "POST /api/tasklist/command/:id",
    request: shared((id) => `/api/tasklist/command/${id}`, "POST", { command: "pause" }),
    expect: onShared(403, 200),
  },
  {
    route: "POST /api/tasklist/priority/:id",
    request: shared((id) => `/api/tasklist/priority/${id}`, "POST", { priority: 5 }),
    expect: onShared(403, 200),
  },
  { route: "GET /api/tasklist/available-tasks", request: () => ({ path: "/api/tasklist/available-tasks" }), expect: signedIn(200) },
  {
    route: "GET /api/tasklist/available-profiles/:id",
    request: async (w) => ({ path: `/api/tasklist/available-profiles/${(await assetIn(w)).assetId}` }),
    expect: onShared(200, 200),
  },
  {
    route: "POST /api/tasklist/enqueue-task/:id",
    request: async (w) => ({
      method: "POST",
      path: `/api/tasklist/enqueue-task/${(await assetIn(w)).assetId}`,
      json: { template_id: T.metadata },
    }),
    expect: onShared(403, 403),
  },
  {
    route: "GET /api/tasklist/task-templates/:class",
    request: () => ({ path: "/api/tasklist/task-templates/proxy" }),
    expect: signedIn(200),
  },
  {
    route: "POST /api/tasklist/task-templates",
    request: (w) => ({
      method: "POST",
      path: "/api/tasklist/task-templates",
      json: { name: `${w.tag} 540p`, operation_class: "proxy", setup: { height: 540, video_bitrate: "1.5M" }, disabled: true },
    }),
    expect: adminOnly(200),
  },
  {
    route: "PATCH /api/tasklist/task-template/:id",
    request: async (w) => {
      const id = crypto.randomUUID();
      await db()
        .insert(taskTemplates)
        .values({
          templateId: id,
          name: `${w.tag} шаблон`,
          operationClass: "metadata",
          setup: {},
          owner: null,
          disabled: true,
          ctime: 1,
          mtime: 1,
        });
      return { method: "PATCH", path: `/api/tasklist/task-template/${id}`, json: { name: `${w.tag} шаблон 2` } };
    },
    expect: adminOnly(200),
  },
  // The transcoder's callbacks ignore bearers: without the task's token everyone gets 403.
  { route: "POST /api/task-cb/:id/progress", request: bogusCallback("progress", { run: 1, progress: 10 }), expect: open(401) },
  { route: "POST /api/task-cb/:id/result", request: bogusCallback("result", { run: 1 }), expect: open(401) },
  { route: "POST /api/task-cb/:id/fail", request: bogusCallback("fail", { run: 1, error: "x" }), expect: open(401) },
  // Workers AI recognition of a piece (transcripts/workers-ai.ts): the task's token too, before any audio is read.
  {
    route: "POST /api/task-cb/:id/audio/transcriptions",
    request: async (w: World) => {
      const body = new FormData();
      body.append("file", new Blob([new Uint8Array(64)], { type: "audio/wav" }), "piece.wav");
      return { method: "POST", path: `/api/task-cb/${await task(w)}/audio/transcriptions?run=1`, body };
    },
    expect: open(401),
  },
  {
    route: "PUT /api/task-cb/:id/out/:name",
    request: bogusCallback(`out/proxy?run=1&exp=9999999999&sig=${"0".repeat(64)}`, undefined, "PUT"),
    expect: open(403),
  },
  {
    route: "POST /api/task-cb/:id/out/:name/multipart",
    request: bogusCallback(`out/proxy/multipart?run=1&exp=9999999999&sig=${"0".repeat(64)}`, { mime: "video/mp4" }),
    expect: open(403),
  },
  {
    route: "PUT /api/task-cb/:id/out/:name/part/:part",
    request: bogusCallback(`out/proxy/part/1?run=1&upload_id=u&exp=9999999999&sig=${"0".repeat(64)}`, undefined, "PUT"),
    expect: open(403),
  },
  {
    route: "POST /api/task-cb/:id/out/:name/complete",
    request: bogusCallback(`out/proxy/complete?run=1&exp=9999999999&sig=${"0".repeat(64)}`, {
      upload_id: "u",
      parts: [{ part: 1, etag: "x" }],
    }),
    expect: open(403),
  },
];
