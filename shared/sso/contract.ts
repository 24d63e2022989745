import { tokens } from "../auth/schemas";
import { idParam } from "../groups/schemas";
import { defineRoute, errorAnswers, errorEnvelope, errorResponses, jsonBody, jsonContent } from "../lib/route-contract";
import { ok } from "../users/schemas";
import { callbackQuery, exchangeBody, providerParam, ssoLink, ssoProvider, startQuery, unlinkParams } from "./schemas";

/**
 * Single sign-on under /api/auth, served by ./routes.ts; the browser calls the providers' list and the code's
 * exchange through call() (docs/decisions/070-route-contracts.md). All open (`security: []`). Then a user's links
 * (/api/user/{id}/sso-links, admins only), served by ./links-routes.ts.
 */
const tags = ["auth"];
const redirect = { 302: { description: "Browser redirect (to the provider, or to /login)" } };

export const ssoProviders = defineRoute({
  method: "get",
  path: "/auth/sso-providers",
  security: [],
  tags,
  summary: "Single sign-on providers offered on the sign-in page",
  responses: { 200: jsonContent(ssoProvider.array()) },
});
export const startSso = defineRoute({
  method: "get",
  path: "/auth/sso/{provider}",
  security: [],
  tags,
  summary: "Start single sign-on: redirects to the provider (state, nonce, PKCE S256)",
  request: { params: providerParam, query: startQuery },
  responses: redirect,
});
export const ssoCallback = defineRoute({
  method: "get",
  path: "/auth/sso-cb/{provider}",
  security: [],
  tags,
  summary: "The provider's redirect back: checks state, exchanges the code, validates the ID token, then /login?token=<one-time code>",
  request: { params: providerParam, query: callbackQuery },
  responses: redirect,
});
export const exchangeToken = defineRoute({
  method: "post",
  path: "/auth/exchange-token",
  security: [],
  tags,
  summary: "Turn the one-time sign-in code (single use, 60 s) into tokens; sets the refresh and page-session cookies",
  request: { body: jsonBody(exchangeBody) },
  responses: {
    200: jsonContent(tokens),
    ...errorResponses,
    403: jsonContent(errorEnvelope, "The account is disabled"),
  },
});

// A user's links (./links-routes.ts).
const linkErrors = errorAnswers({ 403: "Admins only", 404: "No such user or link" });
export const ssoLinks = defineRoute({
  method: "get",
  path: "/user/{id}/sso-links",
  tags: ["user"],
  summary: "A user's single sign-on links",
  request: { params: idParam },
  responses: { 200: jsonContent(ssoLink.array()), ...linkErrors },
});
export const unlinkSso = defineRoute({
  method: "delete",
  path: "/user/{id}/sso-links/{provider}",
  tags: ["user"],
  summary: "Unlink a user from a provider",
  request: { params: unlinkParams },
  responses: { 200: jsonContent(ok), ...linkErrors },
});
