import { entityAccess } from "../lib/access";
import { liveSession } from "../lib/auth";
import { getDb, type Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { assetNotFound } from "../assets/guard";
import { discovery } from "./discovery";
import { proofValid } from "./proof";
import { verifyWopiToken } from "./tokens";

/**
 * Who calls a WOPI file route: the user an access token names, re-read on every call through the session
 * the token was issued in (live, the user enabled, with today's rights), for the one file the token was
 * made for. A forged, expired or foreign token, an ended session (sign-out, revocation, a password change,
 * a disabled user), or a proof that fails answers 401; a file the user can no longer read, 404 (as a missing one).
 */

export interface WopiCaller {
  db: Db;
  user: AuthUser;
  fileId: string;
  /** The token allows writing and the user still holds `update` on the file. */
  canWrite: boolean;
  token: string;
  /** The paths of the live groups holding the file (as the access engine resolved it). */
  placements: string[];
  /** The token was made for an office client (its calls carry proofs; tokens it is handed keep that). */
  proof: boolean;
}

export const badToken = () => new ApiError("unauthorized", "Недействительный или просроченный токен доступа WOPI");

/** The request's proof, checked when the token was made for an office client whose discovery publishes keys. */
async function requireProof(env: Env, req: Request, token: string) {
  const d = await discovery(env);
  if (!d) throw badToken();
  if (!d.proofKeys) return;
  const ok = await proofValid(d.proofKeys, {
    accessToken: token,
    url: req.url,
    timestamp: req.headers.get("X-WOPI-TimeStamp") ?? "",
    proof: req.headers.get("X-WOPI-Proof"),
    proofOld: req.headers.get("X-WOPI-ProofOld"),
  });
  if (!ok) throw new ApiError("unauthorized", "Подпись запроса WOPI (X-WOPI-Proof) не сходится");
}

export async function wopiCaller(env: Env, req: Request, fileId: string, token: string | undefined): Promise<WopiCaller> {
  const claims = token ? await verifyWopiToken(env.JWT_SECRET, token) : null;
  if (!token || !claims || claims.fileId !== fileId) throw badToken();
  if (claims.proof) await requireProof(env, req, token);
  const db = getDb(env);
  // The session row, not the token, says whether the sign-in still holds (as for a bearer, functions/lib/auth.ts).
  const user = await liveSession(env, claims.sessionId);
  if (!user || user.userId !== claims.userId) throw badToken();
  // One look at the user's rights on the file: not readable (or not an asset) is 404, as a missing one.
  const { obj, perms } = await entityAccess(db, user, fileId).catch(() => {
    throw assetNotFound();
  });
  if (obj.type !== "asset") throw assetNotFound();
  const canWrite = claims.write && perms.includes("update");
  return { db, user, fileId, canWrite, token, proof: claims.proof, placements: obj.placements };
}

/** A write needs a token that allows it and the right today: otherwise 401, as WOPI answers a token not good for the call. */
export function requireWrite(c: WopiCaller) {
  if (!c.canWrite) throw new ApiError("unauthorized", "Токен доступа не даёт права на запись");
}

/** 501, which WOPI asks for an operation the host does not offer (ApiError has no such code: it is WOPI's alone). */
export const notImplemented = (message: string) => Response.json({ error: { code: "not_implemented", message } }, { status: 501 });
