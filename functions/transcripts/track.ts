import { playTtlSeconds } from "../assets/play-links";
import { liveSession } from "../lib/auth";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { signUrl, verifyUrl } from "../lib/sign";
import { exportTranscript, getTranscript } from "./service";

/**
 * Subtitle track links: what a <track> loads without headers (docs/decisions/059-transcripts.md). Like a play
 * link (functions/assets/play-links.ts) the signature binds the asset, the version and the caller's session,
 * and every fetch re-checks that the session is live and still reads the asset, so a link stops at logout
 * and when the right goes. It lives as long as a play link; the player loads its track once, at the start.
 */

const purpose = "transcript-track";
const subject = (assetId: string, version: number, sessionId: string) => `${assetId}:${version}:${sessionId}`;

/**
 * A signed link to the version's transcript as WebVTT, at `trackPath` (the same path the link is asked on:
 * POST makes it, GET serves it). 404 when the version has no transcript, so the player adds no empty track.
 */
export async function trackLink(db: Db, env: Env, auth: AuthUser, trackUrl: string, assetId: string, version?: number) {
  const t = await getTranscript(db, auth, assetId, version);
  const expire = Math.floor(Date.now() / 1000) + playTtlSeconds;
  const signature = await signUrl(env.JWT_SECRET, purpose, subject(assetId, t.version, auth.sessionId), expire);
  const url = new URL(trackUrl);
  const link = `${url.origin}${url.pathname}?version=${t.version}&s=${encodeURIComponent(auth.sessionId)}&${signature}`;
  return { link, expire, version: t.version, mtime: t.mtime };
}

const badLink = () => new ApiError("forbidden", "Ссылка недействительна или устарела");

/** The WebVTT file behind a track link, after its signature, its session and the caller's read are checked. */
export async function openTrack(db: Db, env: Env, assetId: string, q: { version?: number; s?: string; exp?: string; sig?: string }) {
  if (q.version === undefined || !q.s) throw badLink();
  if (!(await verifyUrl(env.JWT_SECRET, purpose, subject(assetId, q.version, q.s), q.exp, q.sig))) throw badLink();
  const auth = await liveSession(env, q.s);
  if (!auth) throw new ApiError("forbidden", "Сеанс завершён: ссылка больше не действует");
  return exportTranscript(db, auth, assetId, q.version, "vtt");
}
