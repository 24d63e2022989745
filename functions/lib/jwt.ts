import { jwtVerify, SignJWT } from "jose";
import { bearerKey } from "./keys";

/** Bearer lifetime. Short, because the refresh cookie renews it (the client refreshes 120 s early). */
export const bearerTtlSeconds = 15 * 60;

export async function signBearer(secret: string, userId: string, sessionId: string, now: number) {
  const expire = now + bearerTtlSeconds;
  const bearer = await new SignJWT({ sid: sessionId })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(userId)
    .setIssuedAt(now)
    .setExpirationTime(expire)
    .sign(await bearerKey(secret));
  return { bearer, expire };
}

/** The bearer's subject and session, or null when it is forged, malformed or expired. */
export async function verifyBearer(secret: string, token: string) {
  const key = await bearerKey(secret);
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"] });
    if (typeof payload.sub !== "string" || typeof payload.sid !== "string") return null;
    return { userId: payload.sub, sessionId: payload.sid };
  } catch {
    return null;
  }
}
