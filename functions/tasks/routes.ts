import { requireAdmin } from "../lib/auth";
import { getDb } from "../lib/db";
import { createApp } from "../lib/openapi";
import { taskFor } from "./access";
import { commandTask, enqueueTask, setPriority } from "./commands";
import * as r from "../../shared/tasks/contract";
import { countTasks, getTask, listTasks, taskLog, taskNames, taskResult, taskStatuses as statusesOf } from "./service";
import { availableTasks, createTemplate, listTemplates, patchTemplate } from "./templates";
import { commandsFor } from "../../shared/tasks/transitions";

/** /api/tasklist: the handlers of ./contract.ts's routes. */
const app = createApp();

app.openapi(r.listTasks, async (c) => {
  const { skip, take, ...f } = c.req.valid("query");
  return c.json(await listTasks(getDb(c.env), c.get("auth"), f, skip, take), 200);
});

app.openapi(r.countTasks, async (c) => c.json(await countTasks(getDb(c.env), c.get("auth"), c.req.valid("query")), 200));

app.openapi(r.taskNames, async (c) => c.json(await taskNames(getDb(c.env), c.get("auth")), 200));

app.openapi(r.statusOfTasks, async (c) => c.json(await statusesOf(getDb(c.env), c.get("auth"), c.req.valid("json").ids), 200));

app.openapi(r.getTask, async (c) => c.json(await getTask(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));

app.openapi(r.taskResult, async (c) => c.json(await taskResult(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));

app.openapi(r.sendCommand, async (c) =>
  c.json(await commandTask(getDb(c.env), c.env, c.get("auth"), c.req.valid("param").id, c.req.valid("json").command), 200),
);

app.openapi(r.setPriority, async (c) =>
  c.json(await setPriority(getDb(c.env), c.env, c.get("auth"), c.req.valid("param").id, c.req.valid("json").priority), 200),
);

app.openapi(r.availableTasks, async (c) => c.json(await availableTasks(getDb(c.env), c.get("auth"), c.req.valid("query").entity), 200));

app.openapi(r.availableProfiles, async (c) =>
  c.json(await availableTasks(getDb(c.env), c.get("auth"), c.req.valid("param").id, ["proxy", "audio_proxy", "document_proxy"]), 200),
);

app.openapi(r.enqueueTask, async (c) =>
  c.json(await enqueueTask(getDb(c.env), c.env, c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200),
);

app.openapi(r.taskCommands, async (c) => {
  const t = await taskFor(getDb(c.env), c.get("auth"), c.req.valid("param").id);
  return c.json({ status: t.status, commands: commandsFor(t.status) }, 200);
});

app.openapi(r.listTemplates, async (c) => c.json(await listTemplates(getDb(c.env), c.get("auth"), c.req.valid("param").class), 200));

app.openapi(r.createTemplate, async (c) => {
  requireAdmin(c.get("auth"));
  return c.json(await createTemplate(getDb(c.env), c.get("auth"), c.req.valid("json") as never), 200);
});

app.openapi(r.patchTemplate, async (c) => {
  requireAdmin(c.get("auth"));
  return c.json(await patchTemplate(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200);
});

app.openapi(r.taskLog, async (c) => {
  const { after, take } = c.req.valid("query");
  return c.json(await taskLog(getDb(c.env), c.get("auth"), c.req.valid("param").id, after, take), 200);
});

export default app;
