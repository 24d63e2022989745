import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";

/**
 * A sign-in started at a provider and not yet come back: what the callback must check (state, nonce,
 * PKCE verifier) is kept here, not in the browser. Only hashes of the state and of the browser binding
 * cookie are stored; a row is deleted when the callback uses it, so a state works once.
 */
export const ssoFlows = sqliteTable("sso_flows", {
  /** SHA-256 of the `state` parameter. */
  stateHash: uuidKey("state_hash"),
  provider: text("provider").notNull(),
  nonce: text("nonce").notNull(),
  codeVerifier: text("code_verifier").notNull(),
  /** SHA-256 of the secret in the browser's short-lived cookie: the callback must come from the same browser. */
  browserHash: text("browser_hash").notNull(),
  returnTo: text("return_to").notNull(),
  expiresAt: unixTime("expires_at").notNull(),
});
