import { getDb } from "../lib/db";
import { createApp } from "../lib/openapi";
import { catalogue } from "./catalogue";
import * as r from "../../shared/udwf/contract";
import { executeWorkflow, hookRun, triggerForm } from "./execute";
import { retryRun } from "./retry";
import { getRun, listRuns } from "./runs";
import { listShares, setShares } from "./shares";
import { createWorkflow, deleteWorkflow, enableWorkflow, getWorkflow, listWorkflows, patchWorkflow, setupWorkflow } from "./service";

/** /api/udwf: the handlers of ./contract.ts's routes, automations (docs/decisions/047-automations.md). */
const app = createApp();
const origin = (url: string) => new URL(url).origin;

app.openapi(r.catalogue, (c) => c.json(catalogue(), 200));

app.openapi(r.listWorkflows, async (c) => c.json(await listWorkflows(getDb(c.env), c.get("auth"), origin(c.req.url)), 200));

app.openapi(r.createWorkflow, async (c) => c.json(await createWorkflow(getDb(c.env), c.get("auth"), c.req.valid("json")), 200));

app.openapi(r.getWorkflow, async (c) =>
  c.json(await getWorkflow(getDb(c.env), c.get("auth"), c.req.valid("param").id, origin(c.req.url)), 200),
);

app.openapi(r.patchWorkflow, async (c) =>
  c.json(await patchWorkflow(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200),
);

app.openapi(r.deleteWorkflow, async (c) => c.json(await deleteWorkflow(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));

app.openapi(r.saveSetup, async (c) =>
  c.json(await setupWorkflow(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200),
);

app.openapi(r.setEnabled, async (c) =>
  c.json(await enableWorkflow(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json").enabled), 200),
);

app.openapi(r.listShares, async (c) => c.json(await listShares(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));

app.openapi(r.saveShares, async (c) =>
  c.json(await setShares(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200),
);

app.openapi(r.triggerForm, async (c) => c.json(await triggerForm(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));

app.openapi(r.execute, async (c) => c.json(await executeWorkflow(c.env, c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200));

app.openapi(r.listRuns, async (c) => c.json(await listRuns(getDb(c.env), c.get("auth"), c.req.valid("query")), 200));

app.openapi(r.getRun, async (c) => c.json(await getRun(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));

app.openapi(r.retryRun, async (c) => c.json(await retryRun(c.env, c.get("auth"), c.req.valid("param").id), 200));

// The incoming webhook trigger: the secret in the path is the capability, like a share link's id.
app.openapi(r.hook, async (c) => {
  const { id, secret } = c.req.valid("param");
  const payload = await c.req.json().catch(() => ({}));
  const delivery = c.req.header("webhook-id") ?? c.req.header("Idempotency-Key") ?? null;
  return c.json(await hookRun(c.env, id, secret, payload, delivery?.slice(0, 100) ?? null), 200);
});

export default app;
