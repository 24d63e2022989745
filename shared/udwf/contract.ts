import { z } from "@hono/zod-openapi";
import { defineRoute, errorResponses, jsonBody, jsonContent, routeDefiner } from "../lib/route-contract";
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

/**
 * /api/udwf, served by ./routes.ts and called by the browser through call() (docs/decisions/070-route-contracts.md):
 * automations (docs/decisions/047-automations.md).
 */
const route = routeDefiner(["automations"], errorResponses);

export const catalogue = route("get", "/udwf/actions", "The action catalogue: each action's parameters as a JSON schema", {}, catalogueOut);
export const listWorkflows = route(
  "get",
  "/udwf/workflows",
  "The caller's workflows and those shared with them (an admin's: everyone's), with their last run",
  {},
  workflowsOut,
);
export const createWorkflow = route(
  "post",
  "/udwf/workflow",
  "Creates a workflow (disabled, with no steps yet)",
  { body: jsonBody(createBody) },
  created,
);
export const getWorkflow = route(
  "get",
  "/udwf/workflow/{id}",
  "A workflow; webhook secrets and the hook URL are shown to its editors",
  { params: idParam },
  workflowOut,
);
export const patchWorkflow = route(
  "patch",
  "/udwf/workflow/{id}",
  "Renames or redescribes a workflow",
  { params: idParam, body: jsonBody(patchBody) },
  ok,
);
export const deleteWorkflow = route("delete", "/udwf/workflow/{id}", "Deletes a workflow and its run history", { params: idParam }, ok);
export const saveSetup = route(
  "patch",
  "/udwf/workflow-setup/{id}",
  "Sets trigger, conditions and steps, validated against the catalogue",
  { params: idParam, body: jsonBody(setupBody) },
  ok,
);
export const setEnabled = route(
  "post",
  "/udwf/workflow-enable-disable/{id}",
  "Enables or disables a workflow",
  { params: idParam, body: jsonBody(enableBody) },
  ok,
);
export const listShares = route(
  "get",
  "/udwf/workflow-shares/{id}",
  "Who a workflow is shared with (users, teams) and for what",
  { params: idParam },
  sharesOut,
);
export const saveShares = route(
  "post",
  "/udwf/workflow-shares/{id}",
  "Replaces a workflow's shares (its owner or an admin): view, or edit and run; it acts only where its owner and its last editor may",
  { params: idParam, body: jsonBody(sharesBody) },
  ok,
);
export const triggerForm = route("get", "/udwf/trigger-form/{id}", "The form a manual run asks for", { params: idParam }, triggerFormOut);
export const execute = route(
  "post",
  "/udwf/execute/{id}",
  "Starts a run by hand, on the given entities with the form's values",
  { params: idParam, body: jsonBody(executeBody) },
  runCreated,
);
export const listRuns = route("get", "/udwf/runs", "Runs of the caller's workflows, newest first", { query: runsQuery }, runsOut);
export const getRun = route(
  "get",
  "/udwf/run/{id}",
  "A run: status, times, and each step's status, output and log (viewers: statuses, times and error classes only)",
  { params: idParam },
  runOut,
);
export const retryRun = route(
  "post",
  "/udwf/run/{id}/retry",
  "«Повторить»: a failed run goes back to the queue; its done steps stay done",
  { params: idParam },
  runRetried,
);
export const hook = defineRoute({
  method: "post",
  path: "/udwf/hook/{id}/{secret}",
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
});
