import { z } from "@hono/zod-openapi";
import { getDb } from "../lib/db";
import { errorAnswers, createApp, jsonBody, routeDefiner } from "../lib/openapi";
import { list, listBody, listIdOut, listParam, listRecord, ok, recIdOut, recordBody, recordParam } from "./schemas";
import { addRecord, allLists, changeRecord, createList, deleteList, deleteRecord, recordsOf, renameList } from "./service";

/** /api/lists: everyone reads the vocabularies text fields pick from; admins change them (./service.ts). */
const app = createApp();
const route = routeDefiner(["lists"], errorAnswers({ 403: "Admins only", 404: "Not found", 409: "Name taken or in use" }));

app.openapi(route("get", "/", "All lists", {}, z.array(list)), async (c) => c.json(await allLists(getDb(c.env)), 200));

app.openapi(route("post", "/", "Create a list (admins)", { body: jsonBody(listBody) }, listIdOut), async (c) =>
  c.json({ list_id: await createList(getDb(c.env), c.get("auth"), c.req.valid("json").list_name) }, 200),
);

app.openapi(route("patch", "/{list_id}", "Rename a list (admins)", { params: listParam, body: jsonBody(listBody) }, list), async (c) =>
  c.json(await renameList(getDb(c.env), c.get("auth"), c.req.valid("param").list_id, c.req.valid("json").list_name), 200),
);

app.openapi(
  route(
    "delete",
    "/{list_id}",
    "Delete a list and its records (admins); 409 while a field template picks from it",
    { params: listParam },
    ok,
  ),
  async (c) => {
    await deleteList(getDb(c.env), c.get("auth"), c.req.valid("param").list_id);
    return c.json({ ok: true as const }, 200);
  },
);

app.openapi(
  route("get", "/records/{list_id}", "A list's records, in the order they were added", { params: listParam }, z.array(listRecord)),
  async (c) => c.json(await recordsOf(getDb(c.env), c.req.valid("param").list_id), 200),
);

app.openapi(
  route("post", "/records/{list_id}", "Add a record (admins)", { params: listParam, body: jsonBody(recordBody) }, recIdOut),
  async (c) =>
    c.json({ rec_id: await addRecord(getDb(c.env), c.get("auth"), c.req.valid("param").list_id, c.req.valid("json").rec_data) }, 200),
);

app.openapi(
  route(
    "patch",
    "/records/{list_id}/{rec_id}",
    "Change a record (admins); single values holding its old text follow it",
    { params: recordParam, body: jsonBody(recordBody) },
    listRecord,
  ),
  async (c) => {
    const { list_id, rec_id } = c.req.valid("param");
    return c.json(await changeRecord(getDb(c.env), c.get("auth"), list_id, rec_id, c.req.valid("json").rec_data), 200);
  },
);

app.openapi(
  route(
    "delete",
    "/records/{list_id}/{rec_id}",
    "Delete a record (admins); values already holding its text keep it",
    { params: recordParam },
    ok,
  ),
  async (c) => {
    const { list_id, rec_id } = c.req.valid("param");
    await deleteRecord(getDb(c.env), c.get("auth"), list_id, rec_id);
    return c.json({ ok: true as const }, 200);
  },
);

export default app;
