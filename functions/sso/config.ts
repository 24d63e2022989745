import { z } from "zod";
import type { Env } from "../lib/env";

/**
 * SSO_PROVIDERS: a JSON list of OpenID Connect providers (README "Single sign-on"). Nothing else is
 * configured: endpoints and keys come from the issuer's discovery document.
 */
export const providerSchema = z.object({
  name: z.string().regex(/^[a-z0-9_-]{1,40}$/i, "латиница, цифры, - и _"),
  title: z.string().trim().min(1).max(100),
  issuer: z.url(),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  scopes: z.union([z.array(z.string().min(1)), z.string().min(1)]).optional(),
  /** "claim" (true grants admin) or "claim=value" (equal, or contained in an array); dots walk into objects. */
  admin_claim: z.string().min(1).optional(),
  /** Link an existing user whose login is the provider's verified e-mail (docs/decisions/012). Off by default. */
  link_by_email: z.boolean().optional(),
  /** Only these e-mail domains may sign in, with a verified address (docs/decisions/023). */
  allowed_domains: z
    .array(
      z
        .string()
        .trim()
        .toLowerCase()
        .regex(/^[a-z0-9.-]+\.[a-z0-9-]+$/, "домен, например example.com"),
    )
    .min(1)
    .optional(),
  /** Only a token with this claim may sign in: the admin_claim syntax. */
  required_claim: z.string().min(1).optional(),
});

export interface SsoProviderConfig {
  name: string;
  title: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
  adminClaim?: string;
  linkByEmail: boolean;
  /** Empty: any domain. */
  allowedDomains: string[];
  requiredClaim?: string;
}

let parsed: { raw: string; providers: SsoProviderConfig[] } | undefined;

/** The configured providers; a malformed SSO_PROVIDERS is logged once and offers none. */
export function ssoProviders(env: Pick<Env, "SSO_PROVIDERS">): SsoProviderConfig[] {
  const raw = env.SSO_PROVIDERS?.trim() ?? "";
  if (parsed?.raw === raw) return parsed.providers;
  let providers: SsoProviderConfig[] = [];
  if (raw) {
    try {
      const list = z.array(providerSchema).parse(JSON.parse(raw));
      providers = list.map((p) => ({
        name: p.name,
        title: p.title,
        issuer: p.issuer.replace(/\/+$/, ""),
        clientId: p.client_id,
        clientSecret: p.client_secret,
        scopes: withOpenid(typeof p.scopes === "string" ? p.scopes.split(/\s+/) : (p.scopes ?? ["email", "profile"])),
        adminClaim: p.admin_claim,
        linkByEmail: p.link_by_email ?? false,
        allowedDomains: p.allowed_domains ?? [],
        requiredClaim: p.required_claim,
      }));
      if (new Set(providers.map((p) => p.name)).size !== providers.length) throw new Error("duplicate provider names");
    } catch (err) {
      console.error("SSO_PROVIDERS is not valid; single sign-on is off:", err instanceof Error ? err.message : err);
      providers = [];
    }
  }
  parsed = { raw, providers };
  return providers;
}

const withOpenid = (scopes: string[]) => [...new Set(["openid", ...scopes.filter(Boolean)])];

export const findProvider = (env: Pick<Env, "SSO_PROVIDERS">, name: string) => ssoProviders(env).find((p) => p.name === name);

/**
 * Whether the ID token's claims satisfy `spec`: "claim" (the claim is true) or "claim=value" (equal, or
 * contained in an array); dots walk into objects. The syntax of admin_claim and required_claim.
 */
export function claimMatches(claims: Record<string, unknown>, spec: string): boolean {
  const eq = spec.indexOf("=");
  const path = eq < 0 ? spec : spec.slice(0, eq);
  let value: unknown = claims;
  for (const key of path.split(".")) value = value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
  if (eq < 0) return value === true;
  const wanted = spec.slice(eq + 1);
  return Array.isArray(value) ? value.includes(wanted) : value === wanted;
}

/** Whether the ID token's claims make the new user an admin (admin_claim). */
export const claimGrantsAdmin = (claims: Record<string, unknown>, adminClaim: string | undefined) =>
  !!adminClaim && claimMatches(claims, adminClaim);

/** The e-mail the provider vouches for (email_verified exactly true), lower-cased; otherwise null. */
export function verifiedEmail(claims: { email?: unknown; email_verified?: unknown }): string | null {
  if (claims.email_verified !== true || typeof claims.email !== "string") return null;
  const email = claims.email.trim().toLowerCase();
  return /^[^@\s]+@[^@\s]+$/.test(email) ? email : null;
}

/**
 * Why this provider's allowlist refuses the token (allowed_domains, required_claim; both when both are
 * set), or null when it lets it sign in.
 */
export function allowlistRefusal(provider: SsoProviderConfig, claims: Record<string, unknown>): string | null {
  if (provider.allowedDomains.length) {
    const email = verifiedEmail(claims);
    if (!email) return "allowed_domains: no verified e-mail";
    const domain = email.slice(email.lastIndexOf("@") + 1);
    if (!provider.allowedDomains.includes(domain)) return `allowed_domains: ${domain} is not listed`;
  }
  if (provider.requiredClaim && !claimMatches(claims, provider.requiredClaim))
    return `required_claim: ${provider.requiredClaim} not satisfied`;
  return null;
}
