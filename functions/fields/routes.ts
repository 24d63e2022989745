import { getDb } from "../lib/db";
import { createApp } from "../lib/openapi";
import * as r from "../../shared/fields/contract";
import { exportCsv, importCsv } from "./csv";
import { entitiesByField as searchEntities } from "./search";
import templateRoutes from "./templates";
import { changeValue, createValues, deleteValue, valuesForEntity } from "./values";

/** /api/fields: the handlers of ./contract.ts's routes: templates, and the values entities hold (docs/decisions/031-custom-fields.md). */
const app = createApp();

app.route("/", templateRoutes);

app.openapi(r.exportCsv, async (c) => {
  const csv = await exportCsv(getDb(c.env), c.get("auth"), c.req.valid("param").id);
  return c.body(csv, 200, { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": 'attachment; filename="fields.csv"' });
});

app.openapi(r.importCsv, async (c) => {
  const { csv, dry_run } = c.req.valid("json");
  return c.json(await importCsv(getDb(c.env), c.get("auth"), c.req.valid("param").id, csv, !dry_run), 200);
});

app.openapi(r.valuesOf, async (c) =>
  c.json(await valuesForEntity(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("query")), 200),
);

app.openapi(r.createValue, async (c) => {
  const [fieldId] = await createValues(getDb(c.env), c.get("auth"), [c.req.valid("json")], false);
  return c.json({ field_id: fieldId }, 200);
});

app.openapi(r.createValues, async (c) => {
  const { values, replace } = c.req.valid("json");
  return c.json({ field_ids: await createValues(getDb(c.env), c.get("auth"), values, true, replace) }, 200);
});

app.openapi(r.changeValue, async (c) =>
  c.json(await changeValue(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200),
);

app.openapi(r.deleteValue, async (c) => {
  await deleteValue(getDb(c.env), c.get("auth"), c.req.valid("param").id);
  return c.json({ ok: true as const }, 200);
});

app.openapi(r.findByField, async (c) => c.json(await searchEntities(getDb(c.env), c.get("auth"), c.req.valid("json")), 200));

export default app;
