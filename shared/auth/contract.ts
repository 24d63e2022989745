import { defineRoute, errorAnswers, errorResponses, jsonBody, jsonContent } from "../lib/route-contract";
import { idParam, idsBody } from "../lib/params";
import { entityUserAccessOut as usersOf } from "../users/schemas";
import { aclPerms, entityAccessOut, loginBody, ok, tokens, userAbilities, whoami } from "./schemas";

/**
 * /api/auth's own routes, served by ./routes.ts and called by the browser through call()
 * (docs/decisions/070-route-contracts.md). Those with `security: []` go without a bearer, on the server
 * (functions/lib/auth.ts) and in the browser alike. Single sign-on's are in shared/sso/contract.ts.
 */
const tags = ["auth"];
const objectErrors = errorAnswers({
  403: "Readable, but the acl permission is missing",
  404: "No such object, or the caller may not read it",
});

export const login = defineRoute({
  method: "post",
  path: "/auth/login",
  security: [],
  tags,
  summary: "Sign in with login and password; sets the refresh and page-session cookies",
  request: { body: jsonBody(loginBody) },
  responses: {
    200: jsonContent(tokens),
    ...errorResponses,
    403: jsonContent(tokens, "The account is disabled"),
    429: jsonContent(tokens, "Too many failures; see Retry-After"),
  },
});
export const refresh = defineRoute({
  method: "get",
  path: "/auth/refresh",
  security: [],
  tags,
  summary: "Rotate the refresh cookie and issue a new bearer (and page-session cookie)",
  responses: { 200: jsonContent(tokens), 401: errorResponses[401] },
});
export const logout = defineRoute({
  method: "get",
  path: "/auth/logout",
  security: [],
  tags,
  summary: "End the session of the refresh cookie and clear both cookies",
  responses: { 200: jsonContent(ok) },
});
export const getWhoami = defineRoute({
  method: "get",
  path: "/auth/whoami",
  tags,
  summary: "The signed-in user",
  responses: { 200: jsonContent(whoami), 401: errorResponses[401] },
});
export const getUserAbilities = defineRoute({
  method: "get",
  path: "/auth/user-abilities",
  tags,
  summary: "What the signed-in user may do across the application",
  responses: { 200: jsonContent(userAbilities), 401: errorResponses[401] },
});
export const listAclPerms = defineRoute({
  method: "get",
  path: "/auth/list-acl-perms",
  tags,
  summary: "The permission values an access rule may list",
  responses: { 200: jsonContent(aclPerms), 401: errorResponses[401] },
});
export const entityAccess = defineRoute({
  method: "get",
  path: "/auth/entity-access/{id}",
  tags,
  summary: "The caller's permissions on a group or asset",
  request: { params: idParam },
  responses: { 200: jsonContent(entityAccessOut), ...objectErrors },
});
export const entityUserAccess = defineRoute({
  method: "get",
  path: "/auth/entity-user-access/{id}",
  tags,
  summary: "Who has what on an object: the rules on it and above it (needs acl, or admin)",
  request: { params: idParam },
  responses: { 200: jsonContent(usersOf.element), ...objectErrors },
});
export const entityUserAccessList = defineRoute({
  method: "post",
  path: "/auth/entity-user-access",
  tags,
  summary: "Who has what on several objects (needs acl on each, or admin)",
  request: { body: jsonBody(idsBody) },
  responses: { 200: jsonContent(usersOf), ...objectErrors },
});
