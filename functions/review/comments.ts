import { and, asc, eq, or, sql } from "drizzle-orm";
import { type ReviewComment, reviewComments } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { newId } from "../lib/ids";
import { resolveVersion } from "../transcripts/service";
import { mentionRows } from "./inbox";
import { assetName, assetPerms, mailUsers, readersOf, userNames, usersByLogin, versionPages, versionRate } from "./common";
import type { CommentBody, CommentOut, Moment } from "../../shared/review/schemas";
import { convertFrame, frameAt, type Rate, sameRate, secondsOf, timecode } from "../../shared/review/timecode";

/** Review comments (docs/decisions/061-review-and-approval.md): read on the asset to read and write them. */

export const bad = (field: string, message: string) => new ApiError("validation", message, [{ field, message }]);
export const missing = () => new ApiError("not_found", "Комментарий не найден");

/** `at`/`until` as a frame at a rate: a frame keeps the rate it came with; seconds take `rate` (the version's, or `at`'s). */
function frameOf(m: Moment, rate: Rate | null, field: string): { frame: number; rate: Rate } {
  if (m.seconds === undefined) return { frame: m.frame!, rate: { num: m.fps_num!, den: m.fps_den! } };
  if (!rate) throw bad(field, "частота кадров этой версии ещё неизвестна: укажите frame, fps_num и fps_den");
  return { frame: frameAt(m.seconds, rate), rate };
}

/** Logins named as @login in a text. */
export const mentionedLogins = (text: string) => [
  ...new Set([...text.matchAll(/(?:^|[^\p{L}\p{N}_@.])@([\p{L}\p{N}_.-]*[\p{L}\p{N}_])/gu)].map((m) => m[1])),
];

/** Where and when a new comment goes: its version (a reply: its thread's), its moment and a range's end. */
export async function prepareComment(
  db: Db,
  c: Pick<CommentBody, "asset_id" | "version" | "parent_id" | "at" | "until" | "page">,
  guest = false,
) {
  let version: number;
  if (c.parent_id) {
    const parent = await db.select().from(reviewComments).where(eq(reviewComments.commentId, c.parent_id)).get();
    // A guest never learns an internal comment exists: answering to one is answered as to a missing one.
    if (!parent || parent.assetId !== c.asset_id || (guest && parent.internal))
      throw bad("parent_id", "у этого файла нет такого комментария");
    if (parent.parentId) throw bad("parent_id", "ответ на ответ: укажите первый комментарий обсуждения");
    if (c.version !== undefined && c.version !== parent.version) throw bad("version", `обсуждение относится к версии ${parent.version}`);
    version = parent.version;
  } else version = await resolveVersion(db, c.asset_id, c.version);

  // A page past the end is refused once the PDF's pages are counted; before that any page from 1 is taken.
  if (c.page !== undefined) {
    const pages = await versionPages(db, c.asset_id, version);
    if (pages !== null && c.page > pages) throw bad("page", `страниц в этой версии: ${pages}`);
  }

  let at: { frame: number; rate: Rate } | null = null;
  let untilFrame: number | null = null;
  if (c.at) {
    at = frameOf(c.at, c.at.seconds === undefined ? null : await versionRate(db, c.asset_id, version), "at");
    if (c.until) {
      const until = frameOf(c.until, at.rate, "until");
      untilFrame = convertFrame(until.frame, until.rate, at.rate);
      if (untilFrame < at.frame) throw bad("until", "конец диапазона раньше начала");
    }
  }
  return { version, at, untilFrame };
}

/** Who writes a comment: a user, or a review link's guest (their link's reviewer id and the name they gave). */
export interface CommentAuthor {
  /** The user id, or the guest's reviewer id (never a user's). */
  id: string;
  guestName: string | null;
}

/** The comment's row and its `review.comment` event, for one batch. A guest's event names no user, only the given name. */
export function commentWrites(
  db: Db,
  author: CommentAuthor,
  c: Pick<CommentBody, "asset_id" | "body" | "parent_id" | "page" | "region" | "shapes" | "internal">,
  p: Awaited<ReturnType<typeof prepareComment>>,
  mentions: { userId: string; login: string }[],
) {
  const now = nowSeconds();
  const commentId = newId();
  const { version, at, untilFrame } = p;
  const guest = author.guestName !== null;
  const writes = [
    db.insert(reviewComments).values({
      commentId,
      assetId: c.asset_id,
      version,
      parentId: c.parent_id ?? null,
      userId: author.id,
      guestName: author.guestName,
      body: c.body,
      frame: at?.frame ?? null,
      untilFrame,
      fpsNum: at?.rate.num ?? null,
      fpsDen: at?.rate.den ?? null,
      page: c.page ?? null,
      region: c.region ?? null,
      shapes: c.shapes?.length ? c.shapes : null,
      internal: c.internal,
      ctime: now,
      mtime: now,
    }),
    eventInsert(db, {
      kind: "review.comment",
      userId: guest ? null : author.id,
      entityType: "asset",
      entityId: c.asset_id,
      data: {
        comment_id: commentId,
        version,
        ...(guest ? { guest: author.guestName } : {}),
        ...(c.parent_id ? { parent_id: c.parent_id } : {}),
        ...(at ? { frame: at.frame, fps: `${at.rate.num}/${at.rate.den}` } : {}),
        ...(c.page ? { page: c.page } : {}),
        internal: c.internal,
        mentions: mentions.map((u) => ({ user_id: u.userId, login: u.login })),
      },
    }),
    // «Входящие»: the mentioned users' items, written with the comment (none for a guest, who mentions nobody).
    ...mentionRows(db, {
      commentId,
      assetId: c.asset_id,
      version,
      actorId: author.id,
      userIds: mentions.map((u) => u.userId),
      now,
    }),
  ] as const;
  return { commentId, writes };
}

export async function createComment(db: Db, env: Env, auth: AuthUser, c: CommentBody, origin: string) {
  await assetPerms(db, auth, c.asset_id);
  const prepared = await prepareComment(db, c);
  const { version, at } = prepared;
  const mentioned = await usersByLogin(db, mentionedLogins(c.body));
  // Only those who may read the file hear of it: a mention never leaks a file's existence or its comment.
  const readers = await readersOf(
    db,
    mentioned.map((u) => u.userId),
    c.asset_id,
  );
  const mentions = mentioned.filter((u) => readers.has(u.userId) && u.userId !== auth.userId);
  const { commentId, writes } = commentWrites(db, { id: auth.userId, guestName: null }, c, prepared, mentions);
  await db.batch(writes);
  if (mentions.length) {
    const name = await assetName(db, c.asset_id);
    const where = at ? ` (${timecode(at.frame, at.rate)})` : "";
    const subject = `${auth.userName} упомянул(а) вас в комментарии к «${name}»`;
    await mailUsers(
      env,
      mentions.map((u) => u.login),
      subject,
      `${subject}${where}:\n\n${c.body}\n\n${origin}/asset/${c.asset_id}`,
    );
  }
  return { comment_id: commentId, version };
}

/** A stored moment as the API shows it: the frame, its rate, the exact seconds and the non-drop-frame timecode. */
const momentOut = (frame: number | null, c: ReviewComment) => {
  if (frame === null || !c.fpsNum || !c.fpsDen) return null;
  const rate = { num: c.fpsNum, den: c.fpsDen };
  return { frame, fps_num: rate.num, fps_den: rate.den, seconds: secondsOf(frame, rate), timecode: timecode(frame, rate) };
};

function out(c: ReviewComment, names: Map<string, string>, proxy: Rate | null): Omit<CommentOut, "replies"> {
  return {
    comment_id: c.commentId,
    asset_id: c.assetId,
    version: c.version,
    parent_id: c.parentId,
    body: c.body,
    // A guest's comment carries the name they gave on the review page; their id is their link's, not a user's.
    author: {
      user_id: c.userId,
      name: c.guestName ?? (c.userId ? (names.get(c.userId) ?? null) : null),
      guest: c.guestName !== null,
    },
    at: momentOut(c.frame, c),
    until: momentOut(c.untilFrame, c),
    // The rate given with a comment made before the proxy existed is checked against the proxy's once it is known.
    rate_matches: c.fpsNum && c.fpsDen && proxy ? sameRate({ num: c.fpsNum, den: c.fpsDen }, proxy) : null,
    page: c.page,
    region: c.region,
    shapes: (c.shapes ?? []) as unknown as Record<string, unknown>[],
    internal: c.internal,
    resolved: c.resolved,
    ctime: c.ctime,
    mtime: c.mtime,
  };
}

/** Time order: page, then the moment (exactly, across rates), then creation; comments with neither come last. */
function order(a: ReviewComment, b: ReviewComment) {
  const key = (c: ReviewComment) => [
    c.page ?? Infinity,
    c.frame !== null && c.fpsNum ? secondsOf(c.frame, { num: c.fpsNum, den: c.fpsDen! }) : Infinity,
  ];
  const [pa, ta] = key(a);
  const [pb, tb] = key(b);
  return pa - pb || (ta === tb ? 0 : ta < tb ? -1 : 1) || a.ctime - b.ctime;
}

/**
 * The version's comments in time order, replies under each; the caller must be able to read the asset. For a guest
 * (`forGuest`) internal comments are left out in the query itself, and so are the replies of an internal thread.
 */
export async function loadComments(db: Db, assetId: string, version: number, proxy: Rate | null, forGuest = false) {
  const rows = await db
    .select()
    .from(reviewComments)
    .where(
      and(
        eq(reviewComments.assetId, assetId),
        eq(reviewComments.version, version),
        forGuest ? eq(reviewComments.internal, false) : undefined,
      ),
    )
    .orderBy(asc(reviewComments.ctime), asc(sql`rowid`));
  const names = await userNames(
    db,
    rows.map((r) => r.userId).filter((u): u is string => !!u),
  );
  const tops = rows.filter((r) => !r.parentId).sort(order);
  return tops.map((t) => ({
    ...out(t, names, proxy),
    replies: rows.filter((r) => r.parentId === t.commentId).map((r) => out(r, names, proxy)),
  }));
}

/**
 * One comment exactly as the list shows it (a thread's first comment with its replies, a reply without), for the live
 * room's messages; null when it is gone.
 */
export async function listedComment(db: Db, commentId: string): Promise<CommentOut | Omit<CommentOut, "replies"> | null> {
  // The comment and, for a thread's first, its replies: a push follows every change, so not the version's whole list.
  const rows = await db
    .select()
    .from(reviewComments)
    .where(or(eq(reviewComments.commentId, commentId), eq(reviewComments.parentId, commentId)))
    .orderBy(asc(reviewComments.ctime), asc(sql`rowid`));
  const row = rows.find((r) => r.commentId === commentId);
  if (!row) return null;
  const thread = row.parentId ? [row] : rows;
  const [rate, names] = await Promise.all([
    versionRate(db, row.assetId, row.version),
    userNames(
      db,
      thread.map((r) => r.userId).filter((u): u is string => !!u),
    ),
  ]);
  if (row.parentId) return out(row, names, rate);
  return { ...out(row, names, rate), replies: rows.filter((r) => r.parentId === commentId).map((r) => out(r, names, rate)) };
}

export async function listComments(db: Db, auth: AuthUser, assetId: string, v?: number) {
  await assetPerms(db, auth, assetId);
  const version = await resolveVersion(db, assetId, v);
  const [rate, pages] = await Promise.all([versionRate(db, assetId, version), versionPages(db, assetId, version)]);
  const items = await loadComments(db, assetId, version, rate);
  return { asset_id: assetId, version, rate: rate && { fps_num: rate.num, fps_den: rate.den }, pages, items };
}

/** The comment and the caller's rights on its asset; 404 for a missing comment and for one on an unreadable asset alike. */
async function commentFor(db: Db, auth: AuthUser, id: string) {
  const row = await db.select().from(reviewComments).where(eq(reviewComments.commentId, id)).get();
  if (!row) throw missing();
  try {
    return { row, perms: await assetPerms(db, auth, row.assetId) };
  } catch (e) {
    throw e instanceof ApiError && e.code === "not_found" ? missing() : e;
  }
}

/** A new text by its author; `resolved` by the author or whoever may update the asset. */
export async function patchComment(db: Db, auth: AuthUser, id: string, p: { body?: string; resolved?: boolean }) {
  const { row, perms } = await commentFor(db, auth, id);
  const author = row.userId === auth.userId;
  if (p.body !== undefined && !author) throw new ApiError("forbidden", "Текст комментария меняет только его автор");
  if (p.resolved !== undefined && !author && !perms.includes("update"))
    throw new ApiError("forbidden", "Отметить комментарий решённым может его автор или тот, у кого есть право «update» на файл");
  await db.batch(patchWrites(db, row, { id: auth.userId, guestName: null }, p));
  return { ok: true as const };
}

/** The change and its `review.comment-update` event; `resolved_by` is the actor's id (a guest's: their link's). */
export function patchWrites(db: Db, row: ReviewComment, actor: CommentAuthor, p: { body?: string; resolved?: boolean }) {
  const guest = actor.guestName !== null;
  const set = {
    ...(p.body !== undefined ? { body: p.body } : {}),
    ...(p.resolved !== undefined ? { resolved: p.resolved, resolvedBy: p.resolved ? actor.id : null } : {}),
    mtime: nowSeconds(),
  };
  return [
    db.update(reviewComments).set(set).where(eq(reviewComments.commentId, row.commentId)),
    eventInsert(db, {
      kind: "review.comment-update",
      userId: guest ? null : actor.id,
      entityType: "asset",
      entityId: row.assetId,
      data: {
        comment_id: row.commentId,
        version: row.version,
        ...(guest ? { guest: actor.guestName } : {}),
        ...(p.body !== undefined ? { body: true } : {}),
        ...(p.resolved !== undefined ? { resolved: p.resolved } : {}),
      },
    }),
  ] as const;
}

/** By its author or an admin; a thread's first comment takes its replies along. */
export async function deleteComment(db: Db, auth: AuthUser, id: string) {
  const { row } = await commentFor(db, auth, id);
  if (row.userId !== auth.userId && !auth.isAdmin) throw new ApiError("forbidden", "Удалить комментарий может его автор или администратор");
  await db.batch(deleteWrites(db, row, { id: auth.userId, guestName: null }));
  return { ok: true as const };
}

/** The comment with its replies, and the `review.comment-delete` event. */
export function deleteWrites(db: Db, row: ReviewComment, actor: CommentAuthor) {
  const guest = actor.guestName !== null;
  return [
    db.delete(reviewComments).where(or(eq(reviewComments.commentId, row.commentId), eq(reviewComments.parentId, row.commentId))),
    eventInsert(db, {
      kind: "review.comment-delete",
      userId: guest ? null : actor.id,
      entityType: "asset",
      entityId: row.assetId,
      data: { comment_id: row.commentId, version: row.version, ...(guest ? { guest: actor.guestName } : {}) },
    }),
  ] as const;
}
