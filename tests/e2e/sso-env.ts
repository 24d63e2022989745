/**
 * The OpenID provider the single sign-on browser tests start (tests/e2e/oidc-provider.ts) and the
 * SSO_PROVIDERS the Worker under test gets (playwright.config.ts webServer env). Kept free of imports so
 * the config can read it without loading the provider.
 */
export const OIDC_PORT = Number(process.env.MAM_E2E_OIDC_PORT ?? "8891");
export const OIDC_ISSUER = `http://127.0.0.1:${OIDC_PORT}`;
export const OIDC_CLIENT = { id: "mam-e2e", secret: "mam-e2e-client-secret" };
export const SSO_PROVIDER = { name: "testidp", title: "Тестовый OpenID" };

export const ssoProvidersJson = () =>
  JSON.stringify([
    { ...SSO_PROVIDER, issuer: OIDC_ISSUER, client_id: OIDC_CLIENT.id, client_secret: OIDC_CLIENT.secret, scopes: ["email", "profile"] },
  ]);
