import { getDb } from "../lib/db";
import { createApp } from "../lib/openapi";
import * as r from "../../shared/sso/contract";
import { listLinks, unlink } from "./links";

/** /api/user/{id}/sso-links (routes in ./contract.ts): which providers a user signs in with, and unlinking (admins only). */
const app = createApp();

app.openapi(r.ssoLinks, async (c) => c.json(await listLinks(getDb(c.env), c.env, c.get("auth"), c.req.valid("param").id), 200));

app.openapi(r.unlinkSso, async (c) => {
  const p = c.req.valid("param");
  return c.json(await unlink(getDb(c.env), c.get("auth"), p.id, p.provider), 200);
});

export default app;
