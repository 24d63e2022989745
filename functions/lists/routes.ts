import { getDb } from "../lib/db";
import { createApp } from "../lib/openapi";
import * as r from "../../shared/lists/contract";
import { addRecord, allLists, changeRecord, createList, deleteList, deleteRecord, recordsOf, renameList } from "./service";

/** /api/lists: the handlers of ./contract.ts's routes (./service.ts). */
const app = createApp();

app.openapi(r.allLists, async (c) => c.json(await allLists(getDb(c.env)), 200));

app.openapi(r.createList, async (c) =>
  c.json({ list_id: await createList(getDb(c.env), c.get("auth"), c.req.valid("json").list_name) }, 200),
);

app.openapi(r.renameList, async (c) =>
  c.json(await renameList(getDb(c.env), c.get("auth"), c.req.valid("param").list_id, c.req.valid("json").list_name), 200),
);

app.openapi(r.deleteList, async (c) => {
  await deleteList(getDb(c.env), c.get("auth"), c.req.valid("param").list_id);
  return c.json({ ok: true as const }, 200);
});

app.openapi(r.listRecords, async (c) => c.json(await recordsOf(getDb(c.env), c.req.valid("param").list_id), 200));

app.openapi(r.createRecord, async (c) =>
  c.json({ rec_id: await addRecord(getDb(c.env), c.get("auth"), c.req.valid("param").list_id, c.req.valid("json").rec_data) }, 200),
);

app.openapi(r.changeRecord, async (c) => {
  const { list_id, rec_id } = c.req.valid("param");
  return c.json(await changeRecord(getDb(c.env), c.get("auth"), list_id, rec_id, c.req.valid("json").rec_data), 200);
});

app.openapi(r.deleteRecord, async (c) => {
  const { list_id, rec_id } = c.req.valid("param");
  await deleteRecord(getDb(c.env), c.get("auth"), list_id, rec_id);
  return c.json({ ok: true as const }, 200);
});

export default app;
