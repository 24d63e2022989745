import type { AssetClass } from "../../db/schema";
import { requireAdmin } from "../lib/auth";
import { getDb } from "../lib/db";
import { createApp } from "../lib/openapi";
import { classesByIds, createClass, deleteClass, listClasses, updateClass } from "./class-service";
import * as r from "../../shared/assets/contract";

/** Asset classes: /api/asset/class (admins change them; everyone may read them; ./class-service.ts, ./contract.ts). */
const app = createApp();
const out = (c: AssetClass) => ({ id: c.classId, name: c.name, def_fields: c.defFields });

app.openapi(r.listClasses, async (c) => c.json((await listClasses(getDb(c.env))).map(out), 200));

app.openapi(r.createClass, async (c) => {
  const auth = c.get("auth");
  requireAdmin(auth);
  return c.json(out(await createClass(getDb(c.env), auth.userId, c.req.valid("json"))), 200);
});

app.openapi(r.changeClass, async (c) => {
  const auth = c.get("auth");
  requireAdmin(auth);
  return c.json(out(await updateClass(getDb(c.env), auth.userId, c.req.valid("param").id, c.req.valid("json"))), 200);
});

app.openapi(r.deleteClass, async (c) => {
  const auth = c.get("auth");
  requireAdmin(auth);
  await deleteClass(getDb(c.env), auth.userId, c.req.valid("param").id);
  return c.json({ ok: true as const }, 200);
});

app.openapi(r.classesByIds, async (c) => c.json((await classesByIds(getDb(c.env), c.req.valid("json").ids)).map(out), 200));

export default app;
