import { eq, lt } from "drizzle-orm";
import { ssoCodes, ssoFlows } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import type { Env } from "../lib/env";
import { toBase64Url } from "../../shared/lib/encoding";
import { eventInsert } from "../lib/events";
import { randomSecret, sha256Hex } from "../lib/ids";
import { resolveUser } from "./accounts";
import { findProvider } from "./config";
import { safeReturnPath } from "../../shared/lib/return-path";
import { authorizationUrl, discover, exchangeCode, SsoFailure, verifyIdToken } from "./oidc";

/** A started sign-in may take this long at the provider (typing a password, consent). */
export const flowTtlSeconds = 10 * 60;
/** The one-time code in /login?token=… works once, within this window. */
export const codeTtlSeconds = 60;

export const callbackUrl = (origin: string, provider: string) => `${origin}/api/auth/sso-cb/${encodeURIComponent(provider)}`;

/**
 * GET /api/auth/sso/{provider}: a fresh state, nonce and PKCE verifier are stored (hashed state, bound to
 * this browser by `browserSecret`'s hash) and the provider's authorization URL is returned.
 */
export async function startSignIn(db: Db, env: Env, p: { provider: string; to: string; origin: string; browserSecret: string }) {
  const provider = findProvider(env, p.provider);
  if (!provider) throw new SsoFailure("unknown_provider", p.provider);
  const { doc } = await discover(env, provider);
  const state = randomSecret();
  const nonce = randomSecret();
  const verifier = randomSecret(48);
  const challenge = toBase64Url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  const now = nowSeconds();
  await db.batch([
    // Lapsed flows and codes go with each new sign-in, so the tables stay small without the cron.
    db.delete(ssoFlows).where(lt(ssoFlows.expiresAt, now)),
    db.delete(ssoCodes).where(lt(ssoCodes.expiresAt, now)),
    db.insert(ssoFlows).values({
      stateHash: await sha256Hex(state),
      provider: provider.name,
      nonce,
      codeVerifier: verifier,
      browserHash: await sha256Hex(p.browserSecret),
      returnTo: safeReturnPath(p.to, p.origin),
      expiresAt: now + flowTtlSeconds,
    }),
  ]);
  return authorizationUrl(doc, provider, { redirectUri: callbackUrl(p.origin, provider.name), state, nonce, challenge });
}

export interface CallbackInput {
  provider: string;
  origin: string;
  state?: string;
  code?: string;
  error?: string;
  browserSecret?: string;
}

/**
 * GET /api/auth/sso-cb/{provider}: the state is used up first (one try per state, even a failing one),
 * then the code is exchanged, the ID token validated and the user resolved. Answers the one-time code
 * and where to go; throws SsoFailure with the return path it learned, for the failure redirect.
 */
export async function finishSignIn(db: Db, env: Env, input: CallbackInput): Promise<{ code: string; to: string }> {
  let to: string | undefined;
  try {
    const provider = findProvider(env, input.provider);
    if (!provider) throw new SsoFailure("unknown_provider", input.provider);
    const flow = input.state
      ? await db
          .delete(ssoFlows)
          .where(eq(ssoFlows.stateHash, await sha256Hex(input.state)))
          .returning()
          .get()
      : undefined;
    to = flow?.returnTo;
    if (!flow || flow.provider !== provider.name || flow.expiresAt < nowSeconds())
      throw new SsoFailure("bad_state", "unknown or expired state");
    if (!input.browserSecret || (await sha256Hex(input.browserSecret)) !== flow.browserHash)
      throw new SsoFailure("bad_state", "another browser");
    if (input.error) throw new SsoFailure(input.error === "access_denied" ? "denied" : "provider_error", input.error);
    if (!input.code) throw new SsoFailure("provider_error", "no code");

    const { doc, jwks } = await discover(env, provider);
    const redirectUri = callbackUrl(input.origin, provider.name);
    const idToken = await exchangeCode(env, provider, doc, { code: input.code, redirectUri, verifier: flow.codeVerifier });
    const claims = await verifyIdToken(jwks, provider, idToken, flow.nonce);
    const userId = await resolveUser(db, provider, claims);

    const code = randomSecret();
    await db
      .insert(ssoCodes)
      .values({ codeHash: await sha256Hex(code), userId, provider: provider.name, expiresAt: nowSeconds() + codeTtlSeconds });
    return { code, to: flow.returnTo };
  } catch (err) {
    const failure = err instanceof SsoFailure ? err : new SsoFailure("provider_error", err instanceof Error ? err.message : String(err));
    // The reason goes to the audit trail (events) and the log; the browser only learns the reason's name.
    console.warn(`sso ${input.provider}: ${failure.reason}: ${failure.message}`);
    await eventInsert(db, {
      kind: "auth.sso_failed",
      data: { provider: input.provider, reason: failure.reason, detail: failure.message.slice(0, 300) },
    }).catch(() => undefined);
    throw Object.assign(failure, { to });
  }
}
