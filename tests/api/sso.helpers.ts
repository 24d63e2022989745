import { env } from "cloudflare:test";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import type { Env } from "../../functions/lib/env";
import { api } from "./helpers";

/**
 * A fake OpenID provider for the API tests: only the provider's HTTP is faked (discovery, JWKS, token
 * endpoint, handed to the Worker as env.SSO_FETCH); the Worker's client code runs as in production.
 * The browser's visit to the authorization endpoint is `authorize()`: it approves and mints a code.
 */

export const ISSUER = "https://idp.test/realms/mam";
export const CLIENT = { id: "mam-client", secret: "s3cret with spaces&symbols" };
export const ORIGIN = "http://mam.test";

export interface TokenTweaks {
  aud?: string | string[];
  iss?: string;
  expiresIn?: number;
  nonce?: string;
  otherKey?: boolean;
}

interface Grant {
  claims: Record<string, unknown>;
  nonce: string;
  challenge: string;
  redirectUri: string;
  tweaks: TokenTweaks;
  used: boolean;
}

export async function fakeIdp() {
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const other = await generateKeyPair("RS256");
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  const grants = new Map<string, Grant>();
  const calls: string[] = [];
  let down = false;

  const sign = (claims: Record<string, unknown>, g: Grant, key: CryptoKey) =>
    new SignJWT({ ...claims, nonce: g.tweaks.nonce ?? g.nonce })
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .setIssuer(g.tweaks.iss ?? ISSUER)
      .setAudience(g.tweaks.aud ?? CLIENT.id)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + (g.tweaks.expiresIn ?? 300))
      .sign(key);

  const fetcher = {
    async fetch(input: RequestInfo | URL, init?: RequestInit) {
      const req = new Request(input as RequestInfo, init);
      const url = new URL(req.url);
      calls.push(`${req.method} ${url.pathname}`);
      if (down) throw new TypeError("fetch failed: connection refused");
      if (url.pathname === "/realms/mam/.well-known/openid-configuration") {
        return Response.json({
          issuer: ISSUER,
          authorization_endpoint: `${ISSUER}/auth`,
          token_endpoint: `${ISSUER}/token`,
          jwks_uri: `${ISSUER}/certs`,
          token_endpoint_auth_methods_supported: ["client_secret_basic"],
        });
      }
      if (url.pathname === "/realms/mam/certs") return Response.json({ keys: [jwk] });
      if (url.pathname === "/realms/mam/token" && req.method === "POST") {
        const form = new URLSearchParams(new TextDecoder().decode(await req.arrayBuffer()));
        const basic = atob((req.headers.get("Authorization") ?? "").replace(/^Basic /, ""))
          .split(":")
          .map((s) => decodeURIComponent(s.replace(/\+/g, " ")));
        if (basic[0] !== CLIENT.id || basic[1] !== CLIENT.secret) return Response.json({ error: "invalid_client" }, { status: 401 });
        const g = grants.get(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
        const challenge = btoa(String.fromCharCode(...new Uint8Array(digest)))
          .replace(/\+/g, "-")
          .replace(/\//g, "_")
          .replace(/=+$/, "");
        // Codes are single use, PKCE-bound and tied to the redirect URI, as at a real provider.
        if (!g || g.used || g.challenge !== challenge || g.redirectUri !== form.get("redirect_uri")) {
          return Response.json({ error: "invalid_grant" }, { status: 400 });
        }
        g.used = true;
        const idToken = await sign(g.claims, g, g.tweaks.otherKey ? other.privateKey : privateKey);
        return Response.json({ access_token: "at", token_type: "Bearer", id_token: idToken });
      }
      return new Response("not found", { status: 404 });
    },
  };

  return {
    fetcher,
    calls,
    setDown: (value: boolean) => (down = value),
    /** The user approves at the provider: answers the code the browser would bring back. */
    authorize(location: string, claims: Record<string, unknown>, tweaks: TokenTweaks = {}) {
      const u = new URL(location);
      const code = crypto.randomUUID();
      grants.set(code, {
        claims,
        nonce: u.searchParams.get("nonce")!,
        challenge: u.searchParams.get("code_challenge")!,
        redirectUri: u.searchParams.get("redirect_uri")!,
        tweaks,
        used: false,
      });
      return code;
    },
  };
}

export type FakeIdp = Awaited<ReturnType<typeof fakeIdp>>;

export function ssoEnv(idp: FakeIdp, extra: Record<string, unknown> = {}): Env {
  const providers = [
    {
      name: "corp",
      title: "Корпоративный вход",
      issuer: ISSUER,
      client_id: CLIENT.id,
      client_secret: CLIENT.secret,
      admin_claim: "groups=mam-admins",
      ...extra,
    },
  ];
  return { ...(env as unknown as Env), PUBLIC_URL: ORIGIN, SSO_PROVIDERS: JSON.stringify(providers), SSO_FETCH: idp.fetcher as never };
}

export const cookieOf = (res: Response, name: string) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${name}=`))
    ?.split(";")[0];

/** The browser's trip: start at the Worker, approve at the provider, come back; answers the callback's redirect. */
export async function signInVia(e: Env, idp: FakeIdp, claims: Record<string, unknown>, opts: { to?: string; tweaks?: TokenTweaks } = {}) {
  const start = await api(`/api/auth/sso/corp?to=${encodeURIComponent(opts.to ?? "/jobs")}`, { env: e });
  const location = start.headers.get("Location")!;
  const cookie = cookieOf(start, "mam_sso")!;
  const state = new URL(location).searchParams.get("state")!;
  const code = idp.authorize(location, claims, opts.tweaks);
  const back = await api(`/api/auth/sso-cb/corp?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`, { env: e, cookie });
  return { start, location, cookie, state, code, back, landing: new URL(back.headers.get("Location") ?? "/", ORIGIN) };
}
