import { z } from "@hono/zod-openapi";
import { getDb } from "../lib/db";
import { errorAnswers, createApp, jsonBody, routeDefiner } from "../lib/openapi";
import { createAppPassword, listAppPasswords, revokeAppPassword } from "./app-passwords";
import { appPassword, createAppPasswordBody, davPathOut, newAppPassword } from "./schemas";
import { davPathOf, hrefOf } from "./tree";

/** The API side of WebDAV: the caller's app passwords, and where a group is in its WebDAV tree (for the disk helper). */
const app = createApp();
const route = routeDefiner(
  ["auth"],
  errorAnswers({ 404: "Not one of the caller's live app passwords", 409: "Too many live app passwords" }),
);

const idParam = z.object({ id: z.uuid({ error: "должен быть UUID" }).openapi({ param: { name: "id", in: "path" } }) });

app.openapi(route("get", "/app-passwords", "The caller's live app passwords (never the secrets)", {}, appPassword.array()), async (c) =>
  c.json(await listAppPasswords(getDb(c.env), c.get("auth")), 200),
);
app.openapi(
  route(
    "post",
    "/app-passwords",
    "A new app password for WebDAV (Basic: login + this password); the secret is shown once",
    { body: jsonBody(createAppPasswordBody) },
    newAppPassword,
  ),
  async (c) => c.json(await createAppPassword(getDb(c.env), c.get("auth"), c.req.valid("json").name), 200),
);
app.openapi(
  route(
    "delete",
    "/app-passwords/{id}",
    "Revoke one of the caller's app passwords",
    { params: idParam },
    z.object({ ok: z.literal(true) }),
  ),
  async (c) => c.json(await revokeAppPassword(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);

app.openapi(
  route(
    "get",
    "/dav-path/{id}",
    "The group's address in the caller's WebDAV tree (/dav/<top-most readable group>/…/<group>/)",
    { params: idParam },
    davPathOut,
  ),
  async (c) => c.json({ path: hrefOf(await davPathOf(getDb(c.env), c.get("auth"), c.req.valid("param").id), true) }, 200),
);

export default app;
