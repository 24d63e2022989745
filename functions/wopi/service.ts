import { and, desc, eq, gt, sql } from "drizzle-orm";
import { assets, users, variants, wopiLocks, wopiUserInfo, type Variant } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { loadAsset } from "../assets/service";
import { assetNotFound, readablePlacements, requireAssets } from "../assets/guard";
import { streamVariant } from "../assets/http-content";
import { variantBytesById } from "../assets/versions";
import { sizedBody, writeContent } from "../dav/content";
import { mimeFor } from "../dav/mime";
import { accessContext, groupPermissions, requireAccess } from "../lib/access";
import { configOf } from "../lib/config";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { requireWrite, type WopiCaller } from "./caller";
import { clientUrl, discovery } from "./discovery";
import { requireWritable } from "./locks";
import { signWopiToken } from "./tokens";

/** The WOPI host's file operations (CheckFileInfo, GetFile, PutFile) and the token the host page asks for. */

/** The app's origin as office clients and browsers reach it: PUBLIC_URL when set, else the request's. */
export const appOrigin = (env: Pick<Env, "PUBLIC_URL">, req: Request) => configOf(env).PUBLIC_URL ?? new URL(req.url).origin;
export const wopiSrcOf = (origin: string, fileId: string) => `${origin}/api/wopi/files/${fileId}`;

/** The file's bytes: the latest version's original (master or initial first), as the group listing picks it. */
const contentVariantQuery = (db: Db, assetId: string) =>
  db
    .select()
    .from(variants)
    .where(eq(variants.assetId, assetId))
    .orderBy(desc(variants.version), desc(sql`${variants.variantType} IN ('master', 'initial')`), variants.ctime)
    .limit(1);
export const contentVariant = (db: Db, assetId: string): Promise<Variant | undefined> => contentVariantQuery(db, assetId).get();

/** Changes with every save (a new upload is a new variant). */
export const versionOf = (v: Variant | undefined) => (v ? `${v.version}-${v.variantId}` : "0");

/** A group holding the file where the user may create (where PUT_RELATIVE puts a new file), if any. */
export async function relativeGroup(db: Db, user: AuthUser, fileId: string): Promise<string | null> {
  for (const g of await readablePlacements(db, user, fileId)) {
    const ok = await requireAccess(db, user, "create", [g.group_id], { types: ["group"] }).then(
      () => true,
      () => false,
    );
    if (ok) return g.group_id;
  }
  return null;
}

/** POST /api/wopi/token/{id}: a token for the caller on the file, and where the office client opens it. */
export async function issueToken(db: Db, env: Env, auth: AuthUser, fileId: string, origin: string) {
  await requireAssets(db, auth, "read", [fileId]);
  const write = await requireAssets(db, auth, "update", [fileId]).then(
    () => true,
    () => false,
  );
  const asset = await loadAsset(db, fileId);
  const wopiSrc = wopiSrcOf(origin, fileId);
  const d = await discovery(env);
  const urlsrc = d ? clientUrl(d, asset.name, write, wopiSrc) : null;
  const { token, expires } = await signWopiToken(env.JWT_SECRET, {
    userId: auth.userId,
    sessionId: auth.sessionId,
    fileId,
    write,
    proof: urlsrc !== null,
  });
  return { access_token: token, access_token_ttl: expires * 1000, wopi_src: wopiSrc, urlsrc, can_write: write };
}

/** CheckFileInfo. */
export async function checkFileInfo(c: WopiCaller, origin: string) {
  // One round trip for the file, its content, the user's info and the lock with its holder's name.
  const [[asset], [v], [info], [holder]] = await c.db.batch([
    c.db.select().from(assets).where(eq(assets.assetId, c.fileId)),
    contentVariantQuery(c.db, c.fileId),
    c.db
      .select({ info: wopiUserInfo.info })
      .from(wopiUserInfo)
      .where(and(eq(wopiUserInfo.userId, c.user.userId), eq(wopiUserInfo.assetId, c.fileId))),
    c.db
      .select({ name: users.userName })
      .from(wopiLocks)
      .innerJoin(users, eq(users.userId, wopiLocks.userId))
      .where(and(eq(wopiLocks.assetId, c.fileId), gt(wopiLocks.expiresAt, nowSeconds()))),
  ]);
  if (!asset) throw assetNotFound();
  // Whether PUT_RELATIVE could put a file beside this one (relativeGroup, without its queries: the context is loaded).
  const ctx = await accessContext(c.db, c.user);
  const relative = c.canWrite && c.placements.some((p) => groupPermissions(ctx, p)?.includes("create"));
  return {
    BaseFileName: asset.name,
    Size: v?.contentSize ?? 0,
    OwnerId: asset.owner ?? asset.creator ?? "",
    UserId: c.user.userId,
    UserFriendlyName: c.user.userName,
    Version: versionOf(v),
    LastModifiedTime: new Date((v?.ctime ?? asset.mtime) * 1000).toISOString(),
    UserCanWrite: c.canWrite,
    UserCanNotWriteRelative: !relative,
    UserCanRename: c.canWrite,
    ReadOnly: !c.canWrite,
    SupportsLocks: true,
    SupportsGetLock: true,
    SupportsUpdate: true,
    SupportsRename: true,
    SupportsExtendedLockLength: true,
    SupportsUserInfo: true,
    UserInfo: info?.info ?? "",
    PostMessageOrigin: origin,
    CloseUrl: `${origin}/asset/${c.fileId}`,
    HostEditUrl: `${origin}/editor/${c.fileId}`,
    HostViewUrl: `${origin}/asset/${c.fileId}`,
    // Not WOPI: who holds the lock, so a second editor can say who is editing (the built-in editor shows it).
    LockedByName: holder?.name ?? null,
  };
}

/** GetFile: the bytes (the right the original needs: download), with X-WOPI-ItemVersion. */
export async function getFile(c: WopiCaller, env: Env, req: Request) {
  const v = await contentVariant(c.db, c.fileId);
  const headers = { "X-WOPI-ItemVersion": versionOf(v) };
  const max = req.headers.get("X-WOPI-MaxExpectedSize");
  if (max && /^\d+$/.test(max) && (v?.contentSize ?? 0) > Number(max)) return new Response(null, { status: 412, headers });
  if (!v) return new Response(null, { status: 200, headers: { ...headers, "Content-Length": "0" } });
  const allowed = await variantBytesById(c.db, c.user, v.variantId);
  const res = await streamVariant(c.db, env, req, allowed, "attachment");
  res.headers.set("X-WOPI-ItemVersion", headers["X-WOPI-ItemVersion"]);
  return res;
}

/** Writes the request body as a new version of the file (the upload pipeline: events, preview tasks). */
export async function writeVersion(c: WopiCaller, env: Env, req: Request, fileId = c.fileId) {
  const asset = await loadAsset(c.db, fileId);
  const [place] = await readablePlacements(c.db, c.user, fileId);
  const { body, size } = await sizedBody(req);
  const mime = mimeFor(null, asset.name, asset.mimetype);
  await writeContent(c.db, env, c.user, { assetId: fileId, groupId: place?.group_id, name: asset.name, mime }, body, size);
  return versionOf(await contentVariant(c.db, fileId));
}

/** PutFile: a locked file needs its lock; an unlocked one may be written only while it is empty. */
export async function putFile(c: WopiCaller, env: Env, req: Request) {
  requireWrite(c);
  const v = await contentVariant(c.db, c.fileId);
  await requireWritable(c.db, c.fileId, req.headers.get("X-WOPI-Lock") ?? undefined, (v?.contentSize ?? 0) === 0);
  return writeVersion(c, env, req);
}

/** PUT_USER_INFO: up to 1,024 characters the client keeps for this user and file. */
export async function putUserInfo(c: WopiCaller, text: string) {
  if (text.length > 1024) throw new ApiError("bad_request", "UserInfo длиннее 1024 символов");
  await c.db
    .insert(wopiUserInfo)
    .values({ userId: c.user.userId, assetId: c.fileId, info: text })
    .onConflictDoUpdate({ target: [wopiUserInfo.userId, wopiUserInfo.assetId], set: { info: text } });
}
