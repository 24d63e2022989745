import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../lib/db";
import { createApp, errorResponses, jsonBody, jsonContent, routeDefiner } from "../lib/openapi";
import { catalogue } from "./catalogue";
import { executeWorkflow, hookRun, triggerForm } from "./execute";
import { retryRun } from "./retry";
import { getRun, listRuns } from "./runs";
import {
  catalogueOut,
  createBody,
  created,
  enableBody,
  executeBody,
  idParam,
  ok,
  patchBody,
  runCreated,
  runRetried,
  runOut,
  runsOut,
  runsQuery,
  setupBody,
  sharesBody,
  sharesOut,
  triggerFormOut,
  workflowOut,
  workflowsOut,
} from "./schemas";
import { listShares, setShares } from "./shares";
import { createWorkflow, deleteWorkflow, enableWorkflow, getWorkflow, listWorkflows, patchWorkflow, setupWorkflow } from "./service";

/** /api/udwf: automations (docs/decisions/047-automations.md). */
const app = createApp();
const route = routeDefiner(["automations"], errorResponses);
const origin = (url: string) => new URL(url).origin;

app.openapi(route("get", "/actions", "The action catalogue: each action's parameters as a JSON schema", {}, catalogueOut), (c) =>
  c.json(catalogue(), 200),
);

app.openapi(
  route(
    "get",
    "/workflows",
    "The caller's workflows and those shared with them (an admin's: everyone's), with their last run",
    {},
    workflowsOut,
  ),
  async (c) => c.json(await listWorkflows(getDb(c.env), c.get("auth"), origin(c.req.url)), 200),
);

app.openapi(
  route("post", "/workflow", "Creates a workflow (disabled, with no steps yet)", { body: jsonBody(createBody) }, created),
  async (c) => c.json(await createWorkflow(getDb(c.env), c.get("auth"), c.req.valid("json")), 200),
);

app.openapi(
  route("get", "/workflow/{id}", "A workflow; webhook secrets and the hook URL are shown to its editors", { params: idParam }, workflowOut),
  async (c) => c.json(await getWorkflow(getDb(c.env), c.get("auth"), c.req.valid("param").id, origin(c.req.url)), 200),
);

app.openapi(
  route("patch", "/workflow/{id}", "Renames or redescribes a workflow", { params: idParam, body: jsonBody(patchBody) }, ok),
  async (c) => c.json(await patchWorkflow(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200),
);

app.openapi(route("delete", "/workflow/{id}", "Deletes a workflow and its run history", { params: idParam }, ok), async (c) =>
  c.json(await deleteWorkflow(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);

app.openapi(
  route(
    "patch",
    "/workflow-setup/{id}",
    "Sets trigger, conditions and steps, validated against the catalogue",
    { params: idParam, body: jsonBody(setupBody) },
    ok,
  ),
  async (c) => c.json(await setupWorkflow(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200),
);

app.openapi(
  route("post", "/workflow-enable-disable/{id}", "Enables or disables a workflow", { params: idParam, body: jsonBody(enableBody) }, ok),
  async (c) => c.json(await enableWorkflow(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json").enabled), 200),
);

app.openapi(
  route("get", "/workflow-shares/{id}", "Who a workflow is shared with (users, teams) and for what", { params: idParam }, sharesOut),
  async (c) => c.json(await listShares(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);

app.openapi(
  route(
    "post",
    "/workflow-shares/{id}",
    "Replaces a workflow's shares (its owner or an admin): view, or edit and run; it acts only where its owner and its last editor may",
    { params: idParam, body: jsonBody(sharesBody) },
    ok,
  ),
  async (c) => c.json(await setShares(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200),
);

app.openapi(route("get", "/trigger-form/{id}", "The form a manual run asks for", { params: idParam }, triggerFormOut), async (c) =>
  c.json(await triggerForm(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);

app.openapi(
  route(
    "post",
    "/execute/{id}",
    "Starts a run by hand, on the given entities with the form's values",
    { params: idParam, body: jsonBody(executeBody) },
    runCreated,
  ),
  async (c) => c.json(await executeWorkflow(c.env, c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200),
);

app.openapi(route("get", "/runs", "Runs of the caller's workflows, newest first", { query: runsQuery }, runsOut), async (c) =>
  c.json(await listRuns(getDb(c.env), c.get("auth"), c.req.valid("query")), 200),
);

app.openapi(
  route(
    "get",
    "/run/{id}",
    "A run: status, times, and each step's status, output and log (viewers: statuses, times and error classes only)",
    { params: idParam },
    runOut,
  ),
  async (c) => c.json(await getRun(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);

app.openapi(
  route(
    "post",
    "/run/{id}/retry",
    "«Повторить»: a failed run goes back to the queue; its done steps stay done",
    { params: idParam },
    runRetried,
  ),
  async (c) => c.json(await retryRun(c.env, c.get("auth"), c.req.valid("param").id), 200),
);

// The incoming webhook trigger: the secret in the path is the capability, like a share link's id.
app.openapi(
  createRoute({
    method: "post",
    path: "/hook/{id}/{secret}",
    tags: ["automations"],
    summary: "Starts a webhook-triggered workflow; the JSON body is the run's input",
    security: [],
    request: {
      params: z.object({
        id: z
          .string()
          .max(40)
          .openapi({ param: { name: "id", in: "path" } }),
        secret: z
          .string()
          .max(100)
          .openapi({ param: { name: "secret", in: "path" } }),
      }),
    },
    responses: {
      200: jsonContent(runCreated),
      400: errorResponses[400],
      404: { description: "No such hook", content: errorResponses[400].content },
    },
  }),
  async (c) => {
    const { id, secret } = c.req.valid("param");
    const payload = await c.req.json().catch(() => ({}));
    const delivery = c.req.header("webhook-id") ?? c.req.header("Idempotency-Key") ?? null;
    return c.json(await hookRun(c.env, id, secret, payload, delivery?.slice(0, 100) ?? null), 200);
  },
);

export default app;
