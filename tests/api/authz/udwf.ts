import { call } from "../fixtures";
import { ownedBy, signedIn, type RouteCase, type World } from "./types";

/**
 * /api/udwf (docs/decisions/047-automations.md, 050): everyone signed in reads the catalogue, lists their own and
 * shared workflows and creates one. A workflow (here the editor's, shared with no one) exists only for its owner and
 * admins: anyone else gets 404, like a missing one. What a share gives is in tests/api/automations-shares.test.ts. The incoming webhook is open; a wrong secret answers 404 to everyone.
 */

/** The workflow is the editor's: only they and admins see it. */
const ownerOnly = (status = 200) => ownedBy("editor", status);

let n = 0;
async function editorsWorkflow(w: World) {
  const bearer = w.users.editor.bearer!;
  const r = await call("/api/udwf/workflow", { method: "POST", bearer, json: { name: `Матрица-поток ${++n}` } });
  if (r.status !== 200) throw new Error(`workflow create failed: ${r.text}`);
  const id = r.body.workflow_id as string;
  const steps = [{ action: "email.send", params: { to: ["matrix@example.com"], subject: "Матрица", body: "{{run.id}}" } }];
  await call(`/api/udwf/workflow-setup/${id}`, { method: "PATCH", bearer, json: { trigger: { type: "manual" }, steps } });
  return id;
}

/** One workflow per world for reads; a fresh one for each call that changes it. */
const kept = new WeakMap<World, Promise<string>>();
const keptWorkflow = (w: World) => {
  if (!kept.has(w)) kept.set(w, editorsWorkflow(w));
  return kept.get(w)!;
};
const keptRuns = new WeakMap<World, Promise<string>>();
const keptRun = (w: World) => {
  if (!keptRuns.has(w))
    keptRuns.set(
      w,
      keptWorkflow(w).then(async (id) => {
        const r = await call(`/api/udwf/execute/${id}`, { method: "POST", bearer: w.users.editor.bearer!, json: {} });
        return r.body.run_id as string;
      }),
    );
  return keptRuns.get(w)!;
};

export const udwfCases: RouteCase[] = [
  { route: "GET /api/udwf/actions", request: () => ({ path: "/api/udwf/actions" }), expect: signedIn(200) },
  { route: "GET /api/udwf/workflows", request: () => ({ path: "/api/udwf/workflows" }), expect: signedIn(200) },
  {
    route: "POST /api/udwf/workflow",
    request: () => ({ method: "POST", path: "/api/udwf/workflow", json: { name: `Матрица-новый ${++n}` } }),
    expect: signedIn(200),
  },
  {
    route: "GET /api/udwf/workflow/:id",
    request: async (w) => ({ path: `/api/udwf/workflow/${await keptWorkflow(w)}` }),
    expect: ownerOnly(),
  },
  {
    route: "PATCH /api/udwf/workflow/:id",
    request: async (w) => ({ method: "PATCH", path: `/api/udwf/workflow/${await editorsWorkflow(w)}`, json: { description: "матрица" } }),
    expect: ownerOnly(),
  },
  {
    route: "DELETE /api/udwf/workflow/:id",
    request: async (w) => ({ method: "DELETE", path: `/api/udwf/workflow/${await editorsWorkflow(w)}` }),
    expect: ownerOnly(),
  },
  {
    route: "PATCH /api/udwf/workflow-setup/:id",
    request: async (w) => ({
      method: "PATCH",
      path: `/api/udwf/workflow-setup/${await editorsWorkflow(w)}`,
      json: { trigger: { type: "manual" }, steps: [{ action: "email.send", params: { to: ["m@example.com"], subject: "s", body: "b" } }] },
    }),
    expect: ownerOnly(),
  },
  {
    route: "POST /api/udwf/workflow-enable-disable/:id",
    request: async (w) => ({
      method: "POST",
      path: `/api/udwf/workflow-enable-disable/${await editorsWorkflow(w)}`,
      json: { enabled: false },
    }),
    expect: ownerOnly(),
  },
  {
    route: "GET /api/udwf/trigger-form/:id",
    request: async (w) => ({ path: `/api/udwf/trigger-form/${await keptWorkflow(w)}` }),
    expect: ownerOnly(),
  },
  {
    route: "POST /api/udwf/execute/:id",
    request: async (w) => ({ method: "POST", path: `/api/udwf/execute/${await keptWorkflow(w)}`, json: {} }),
    expect: ownerOnly(),
  },
  {
    route: "GET /api/udwf/workflow-shares/:id",
    request: async (w) => ({ path: `/api/udwf/workflow-shares/${await keptWorkflow(w)}` }),
    expect: ownerOnly(),
  },
  {
    route: "POST /api/udwf/workflow-shares/:id",
    request: async (w) => ({ method: "POST", path: `/api/udwf/workflow-shares/${await editorsWorkflow(w)}`, json: { shares: [] } }),
    expect: ownerOnly(),
  },
  { route: "GET /api/udwf/runs", request: () => ({ path: "/api/udwf/runs?take=50" }), expect: signedIn(200) },
  { route: "GET /api/udwf/run/:id", request: async (w) => ({ path: `/api/udwf/run/${await keptRun(w)}` }), expect: ownerOnly() },
  {
    // The kept run has not failed: those who may retry it are told so (409); anyone else learns nothing of it.
    route: "POST /api/udwf/run/:id/retry",
    request: async (w) => ({ method: "POST", path: `/api/udwf/run/${await keptRun(w)}/retry` }),
    expect: ownerOnly(409),
  },
  {
    route: "POST /api/udwf/hook/:id/:secret",
    request: async (w) => ({ method: "POST", path: `/api/udwf/hook/${await keptWorkflow(w)}/not-the-secret`, json: {} }),
    expect: { anonymous: 404, disabled: 404, none: 404, reader: 404, chrooted: 404, robot: 404, editor: 404, admin: 404 },
  },
];
