import { z } from "zod";
import type { Env } from "../lib/env";

/**
 * SSO_PROVIDERS: a JSON list of OpenID Connect providers (README "Single sign-on"). Nothing else is
 * configured: endpoints and keys come from the issuer's discovery document.
 */
const providerSchema = z.object({
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

/** Whether the ID token's claims make the new user an admin (admin_claim, see the schema above). */
export function claimGrantsAdmin(claims: Record<string, unknown>, adminClaim: string | undefined): boolean {
  if (!adminClaim) return false;
  const eq = adminClaim.indexOf("=");
  const path = eq < 0 ? adminClaim : adminClaim.slice(0, eq);
  let value: unknown = claims;
  for (const key of path.split(".")) value = value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
  if (eq < 0) return value === true;
  const wanted = adminClaim.slice(eq + 1);
  return Array.isArray(value) ? value.includes(wanted) : value === wanted;
}
