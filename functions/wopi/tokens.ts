import { jwtVerify, SignJWT } from "jose";
import { wopiKey } from "../lib/keys";

/**
 * WOPI access tokens: what an office client sends back as ?access_token= on every call. Signed by the Worker
 * (HS256, a key of its own derived from JWT_SECRET), bound to one user, one file, whether the user may
 * write, and the sign-in session (or robot token) it was issued in. Every call re-reads that session and the
 * user's rights (functions/wopi/caller.ts), so sign-out, a revoked session, a password change, a disabled
 * user or a revoked right ends access before the token lapses. docs/decisions/046-wopi.md.
 */

/** Long enough for an editing session (an office client cannot renew its token), short enough to expire the same day. */
export const wopiTokenTtlSeconds = 4 * 3600;

export interface WopiClaims {
  userId: string;
  /** The session the token was issued in, as AuthUser.sessionId names it: the token lives no longer than it. */
  sessionId: string;
  fileId: string;
  write: boolean;
  /** Made for an office client: its calls must carry a proof when its discovery publishes keys (./proof.ts). */
  proof: boolean;
}

export async function signWopiToken(secret: string, claims: WopiClaims, now = Math.floor(Date.now() / 1000), ttl = wopiTokenTtlSeconds) {
  const expires = now + ttl;
  const token = await new SignJWT({ sid: claims.sessionId, fid: claims.fileId, w: claims.write, p: claims.proof })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(claims.userId)
    .setAudience("wopi")
    .setIssuedAt(now)
    .setExpirationTime(expires)
    .sign(await wopiKey(secret));
  return { token, expires };
}

/** The token's claims, or null when it is forged, malformed, expired or made for another purpose. */
export async function verifyWopiToken(secret: string, token: string): Promise<WopiClaims | null> {
  try {
    const { payload } = await jwtVerify(token, await wopiKey(secret), { algorithms: ["HS256"], audience: "wopi" });
    const { sub, sid, fid, w, p } = payload;
    // A token without a session (made before tokens carried one) is refused: it could not be ended by sign-out.
    if (typeof sub !== "string" || typeof sid !== "string" || typeof fid !== "string" || typeof w !== "boolean" || typeof p !== "boolean")
      return null;
    return { userId: sub, sessionId: sid, fileId: fid, write: w, proof: p };
  } catch {
    return null;
  }
}
