import type { Server } from "node:http";
import Provider from "oidc-provider";
import { OIDC_CLIENT, OIDC_ISSUER, OIDC_PORT, SSO_PROVIDER } from "./sso-env";

/**
 * A real OpenID provider (the npm package oidc-provider) on 127.0.0.1, for the single sign-on browser
 * tests: one static confidential client (our Worker), its built-in development sign-in pages (any login,
 * any password), and accounts made up from the login: the login is the stable subject.
 */
export async function startOidcProvider(appOrigin: string): Promise<{ close: () => Promise<void> }> {
  const provider = new Provider(OIDC_ISSUER, {
    clients: [
      {
        client_id: OIDC_CLIENT.id,
        client_secret: OIDC_CLIENT.secret,
        redirect_uris: [`${appOrigin}/api/auth/sso-cb/${SSO_PROVIDER.name}`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    features: { devInteractions: { enabled: true } },
    // The Worker reads who signed in from the ID token alone (no userinfo call), as Google and Keycloak allow.
    conformIdTokenClaims: false,
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "preferred_username"] },
    cookies: { keys: ["e2e-only-cookie-signing-key"] },
    async findAccount(_ctx, id) {
      return {
        accountId: id,
        async claims() {
          return { sub: id, email: `${id}@idp.test`, email_verified: true, name: `SSO ${id}`, preferred_username: id };
        },
      };
    },
  });
  const server: Server = await new Promise((resolve) => {
    const s = provider.listen(OIDC_PORT, "127.0.0.1", () => resolve(s));
  });
  return { close: () => new Promise((resolve) => server.close(() => resolve())) };
}
