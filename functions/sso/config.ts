import { configOf } from "../lib/config";
import type { Env } from "../lib/env";

// The providers' schema lies in lib with the other variables' parsing (functions/lib/config.ts).
import type { SsoProviderConfig } from "../lib/sso-providers";
export { providerSchema, type SsoProviderConfig } from "../lib/sso-providers";

/** The configured providers (SSO_PROVIDERS); a malformed list is logged once and offers none. */
export const ssoProviders = (env: Pick<Env, "SSO_PROVIDERS">) => configOf(env).SSO_PROVIDERS;

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
