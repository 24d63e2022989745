import { z } from "zod";

/**
 * SSO_PROVIDERS: a JSON list of OpenID Connect providers (README "Single sign-on"). Nothing else is
 * configured: endpoints and keys come from the issuer's discovery document. Read once with the other
 * variables (functions/lib/config.ts); the sign-in flow lives in functions/sso/.
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

const withOpenid = (scopes: string[]) => [...new Set(["openid", ...scopes.filter(Boolean)])];

export function toProviderConfig(p: z.output<typeof providerSchema>): SsoProviderConfig {
  return {
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
  };
}
