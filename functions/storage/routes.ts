import { requireAdmin } from "../lib/auth";
import { getDb } from "../lib/db";
import { createApp } from "../lib/openapi";
import * as r from "../../shared/storage/contract";
import { createStorage, listStorages, setAssetStorage, storageForEntity, storageUsage, updateStorage } from "./service";

/** /api/storage: the handlers of ./contract.ts's routes (docs/decisions/008-storages.md). */
const app = createApp();

app.openapi(r.createStorage, async (c) => {
  requireAdmin(c.get("auth"));
  return c.json(await createStorage(getDb(c.env), c.env, c.get("auth"), c.req.valid("json")), 200);
});

app.openapi(r.listStorages, async (c) => c.json(await listStorages(getDb(c.env), c.get("auth")), 200));

app.openapi(r.updateStorage, async (c) => {
  requireAdmin(c.get("auth"));
  return c.json(await updateStorage(getDb(c.env), c.env, c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200);
});

app.openapi(r.storageUsage, async (c) => {
  requireAdmin(c.get("auth"));
  return c.json(await storageUsage(getDb(c.env)), 200);
});

app.openapi(r.storageForEntity, async (c) => c.json(await storageForEntity(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));

app.openapi(r.setStorageForEntity, async (c) => {
  const db = getDb(c.env);
  const { id } = c.req.valid("param");
  await setAssetStorage(db, c.get("auth"), id, c.req.valid("json").storage_id);
  return c.json(await storageForEntity(db, c.get("auth"), id), 200);
});

export default app;
