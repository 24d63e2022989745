import { createRemoteJWKSet, customFetch, jwtVerify, type JWTPayload } from "jose";
import type { Env } from "../lib/env";
import type { SsoProviderConfig } from "./config";

/**
 * The OpenID Connect relying party: discovery, the authorization URL, the code exchange and ID-token
 * validation. Every outbound call goes through `providerFetch`, so tests can put a fake provider there
 * (env.SSO_FETCH) while this code runs as in production.
 */

export type FetchFn = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export const providerFetch = (env: Pick<Env, "SSO_FETCH">): FetchFn =>
  env.SSO_FETCH ? (input, init) => env.SSO_FETCH!.fetch(input as RequestInfo, init) : (input, init) => fetch(input, init);

/** Why a sign-in failed; the callback maps it to /login?sso_error=<reason> and the page shows the Russian text. */
export class SsoFailure extends Error {
  constructor(
    readonly reason: SsoFailureReason,
    detail?: string,
  ) {
    super(detail ?? reason);
  }
}
export type SsoFailureReason =
  | "unknown_provider"
  | "provider_unavailable"
  | "denied"
  | "provider_error"
  | "bad_state"
  | "exchange_failed"
  | "bad_token"
  | "disabled"
  /** The provider's allowlist (allowed_domains, required_claim) does not let this token in. */
  | "not_allowed"
  /** link_by_email found an admin's login: never linked that way. */
  | "admin_by_email";

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  token_endpoint_auth_methods_supported?: string[];
}

const discoveryTtlMs = 60 * 60 * 1000;
type Jwks = ReturnType<typeof createRemoteJWKSet>;
interface Cached {
  doc: Discovery;
  at: number;
  jwks: Jwks;
}
// Per isolate, per fetch implementation (tests use several fake providers): discovery for an hour, and the
// JWKS as jose caches it (refetched when a token names an unknown key, so key rotation needs no restart).
const caches = new WeakMap<object, Map<string, Cached>>();
const globalKey = {};

export async function discover(env: Pick<Env, "SSO_FETCH">, provider: SsoProviderConfig): Promise<Cached> {
  const cacheKey = env.SSO_FETCH ?? globalKey;
  let cache = caches.get(cacheKey);
  if (!cache) {
    cache = new Map();
    caches.set(cacheKey, cache);
  }
  const hit = cache.get(provider.issuer);
  if (hit && Date.now() - hit.at < discoveryTtlMs) return hit;

  const doFetch = providerFetch(env);
  let doc: Discovery;
  try {
    const res = await doFetch(`${provider.issuer}/.well-known/openid-configuration`, { headers: { Accept: "application/json" } });
    if (!res.ok) throw new Error(`discovery answered ${res.status}`);
    doc = (await res.json()) as Discovery;
  } catch (err) {
    throw new SsoFailure("provider_unavailable", `${provider.name}: ${err instanceof Error ? err.message : err}`);
  }
  // OpenID Connect Discovery 1.0 §4.3: the document must name exactly the configured issuer.
  if (doc.issuer?.replace(/\/+$/, "") !== provider.issuer || !doc.authorization_endpoint || !doc.token_endpoint || !doc.jwks_uri) {
    throw new SsoFailure("provider_unavailable", `${provider.name}: discovery document does not match the issuer`);
  }
  const jwks = createRemoteJWKSet(new URL(doc.jwks_uri), {
    [customFetch]: (url: string, init: RequestInit) => doFetch(url, init),
  } as Parameters<typeof createRemoteJWKSet>[1]);
  const entry = { doc, at: Date.now(), jwks };
  cache.set(provider.issuer, entry);
  return entry;
}

export function authorizationUrl(
  doc: Discovery,
  provider: SsoProviderConfig,
  p: { redirectUri: string; state: string; nonce: string; challenge: string },
) {
  const url = new URL(doc.authorization_endpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", provider.clientId);
  url.searchParams.set("redirect_uri", p.redirectUri);
  url.searchParams.set("scope", provider.scopes.join(" "));
  url.searchParams.set("state", p.state);
  url.searchParams.set("nonce", p.nonce);
  url.searchParams.set("code_challenge", p.challenge);
  url.searchParams.set("code_challenge_method", "S256");
  return url.toString();
}

/** RFC 6749 §2.3.1: Basic credentials are form-encoded before base64. */
const formEncode = (s: string) => encodeURIComponent(s).replace(/%20/g, "+");

/** Trades the authorization code (with the PKCE verifier) for tokens; answers the raw ID token. */
export async function exchangeCode(
  env: Pick<Env, "SSO_FETCH">,
  provider: SsoProviderConfig,
  doc: Discovery,
  p: { code: string; redirectUri: string; verifier: string },
): Promise<string> {
  const body = new URLSearchParams({
    grant_type: "authorization_code",
    code: p.code,
    redirect_uri: p.redirectUri,
    code_verifier: p.verifier,
  });
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" };
  const methods = doc.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
  if (methods.includes("client_secret_basic") || !methods.includes("client_secret_post")) {
    headers.Authorization = `Basic ${btoa(`${formEncode(provider.clientId)}:${formEncode(provider.clientSecret)}`)}`;
  } else {
    body.set("client_id", provider.clientId);
    body.set("client_secret", provider.clientSecret);
  }
  let res: Response;
  try {
    res = await providerFetch(env)(doc.token_endpoint, { method: "POST", headers, body: body.toString() });
  } catch (err) {
    throw new SsoFailure("provider_unavailable", `token endpoint: ${err instanceof Error ? err.message : err}`);
  }
  const json = (await res.json().catch(() => null)) as { id_token?: unknown; error?: string } | null;
  if (!res.ok || typeof json?.id_token !== "string")
    throw new SsoFailure("exchange_failed", `token endpoint ${res.status} ${json?.error ?? ""}`);
  return json.id_token;
}

export interface IdClaims extends JWTPayload {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
}

/** Signature against the provider's JWKS, issuer, audience, expiry (30 s leeway), nonce and azp. */
export async function verifyIdToken(jwks: Jwks, provider: SsoProviderConfig, idToken: string, nonce: string): Promise<IdClaims> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, jwks, {
      issuer: [provider.issuer, `${provider.issuer}/`],
      audience: provider.clientId,
      clockTolerance: 30,
    }));
  } catch (err) {
    throw new SsoFailure("bad_token", err instanceof Error ? `${err.name}: ${err.message}` : String(err));
  }
  if (payload.nonce !== nonce) throw new SsoFailure("bad_token", "nonce mismatch");
  if (typeof payload.sub !== "string" || !payload.sub) throw new SsoFailure("bad_token", "no subject");
  const aud = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (aud.length > 1 && payload.azp !== provider.clientId) throw new SsoFailure("bad_token", "azp is not this client");
  return payload as IdClaims;
}
