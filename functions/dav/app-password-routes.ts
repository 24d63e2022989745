import { getDb } from "../lib/db";
import { createApp } from "../lib/openapi";
import { createAppPassword, listAppPasswords, revokeAppPassword } from "./app-passwords";
import * as r from "../../shared/dav/contract";
import { davPathOf, hrefOf } from "./tree";

/** The API side of WebDAV (routes in ./contract.ts): the caller's app passwords, and where a group is in its WebDAV tree (for the disk helper). */
const app = createApp();

app.openapi(r.listAppPasswords, async (c) => c.json(await listAppPasswords(getDb(c.env), c.get("auth")), 200));
app.openapi(r.createAppPassword, async (c) => c.json(await createAppPassword(getDb(c.env), c.get("auth"), c.req.valid("json").name), 200));
app.openapi(r.revokeAppPassword, async (c) => c.json(await revokeAppPassword(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));

app.openapi(r.davPath, async (c) =>
  c.json({ path: hrefOf(await davPathOf(getDb(c.env), c.get("auth"), c.req.valid("param").id), true) }, 200),
);

export default app;
