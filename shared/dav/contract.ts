import { z } from "@hono/zod-openapi";
import { errorAnswers, jsonBody, routeDefiner } from "../lib/route-contract";
import { appPassword, createAppPasswordBody, davPathOut, newAppPassword } from "./schemas";

/**
 * The API side of WebDAV under /api/auth, served by ./app-password-routes.ts and called by the browser through call()
 * (docs/decisions/070-route-contracts.md): the caller's app passwords, and where a group is in its WebDAV tree.
 */
const route = routeDefiner(
  ["auth"],
  errorAnswers({ 404: "Not one of the caller's live app passwords", 409: "Too many live app passwords" }),
);

const idParam = z.object({ id: z.uuid({ error: "должен быть UUID" }).openapi({ param: { name: "id", in: "path" } }) });

export const listAppPasswords = route(
  "get",
  "/auth/app-passwords",
  "The caller's live app passwords (never the secrets)",
  {},
  appPassword.array(),
);
export const createAppPassword = route(
  "post",
  "/auth/app-passwords",
  "A new app password for WebDAV (Basic: login + this password); the secret is shown once",
  { body: jsonBody(createAppPasswordBody) },
  newAppPassword,
);
export const revokeAppPassword = route(
  "delete",
  "/auth/app-passwords/{id}",
  "Revoke one of the caller's app passwords",
  { params: idParam },
  z.object({ ok: z.literal(true) }),
);
export const davPath = route(
  "get",
  "/auth/dav-path/{id}",
  "The group's address in the caller's WebDAV tree (/dav/<top-most readable group>/…/<group>/)",
  { params: idParam },
  davPathOut,
);
