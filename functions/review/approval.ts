import { and, asc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import {
  type ReviewDecision,
  type ReviewRequest,
  reviewComments,
  reviewDecisions,
  reviewRequests,
  reviewReviewers,
  shareLinks,
  users,
} from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError, type ErrorDetail } from "../lib/errors";
import { eventInsert, type EventInput } from "../lib/events";
import { newId } from "../lib/ids";
import { idList } from "../lib/sql";
import { resolveVersion } from "../transcripts/service";
import { assetName, assetPerms, mailUsers, readersOf, userNames, usersByLogin } from "./common";
import { guestLinks, guestLinkWrites, mailGuestLinks, reviewPath } from "./guest-links";
import type { CommentAuthor } from "./comments";
import { requestRows } from "./inbox";
import type { ApprovalOut, DecisionBody, OverallStatus, RequestBody, RoundOut } from "../../shared/review/schemas";

/**
 * Approval per version (docs/decisions/061-review-and-approval.md). A version's round is its request (reviewers,
 * the any/all rule, a due date) and every decision made on it; a new version starts a new round, earlier rounds stay.
 */

export interface Round {
  version: number;
  request: ReviewRequest | null;
  reviewers: string[];
  decisions: ReviewDecision[];
}

/** Each user's latest decision (decisions come oldest first). */
export const latestOf = (decisions: ReviewDecision[]) => new Map(decisions.map((d) => [d.userId, d]));

/**
 * The round's overall status: a rejection wins, then a request for changes; otherwise approved once one reviewer
 * approved (any), or every requested reviewer did (all); pending until then.
 */
export function overallOf(r: Pick<Round, "request" | "reviewers" | "decisions">): OverallStatus {
  const latest = latestOf(r.decisions);
  const statuses = [...latest.values()].map((d) => d.status);
  if (statuses.includes("rejected")) return "rejected";
  if (statuses.includes("changes_requested")) return "changes_requested";
  if (r.request?.allMustApprove)
    return r.reviewers.length > 0 && r.reviewers.every((u) => latest.get(u)?.status === "approved") ? "approved" : "pending";
  return statuses.includes("approved") ? "approved" : "pending";
}

/** Every round of the asset, by version (oldest decisions first within each). */
async function loadRounds(db: Db, assetId: string): Promise<Map<number, Round>> {
  const [requests, reviewers, decisions] = await db.batch([
    db.select().from(reviewRequests).where(eq(reviewRequests.assetId, assetId)),
    db
      .select({ requestId: reviewReviewers.requestId, userId: reviewReviewers.userId })
      .from(reviewReviewers)
      .innerJoin(reviewRequests, eq(reviewRequests.requestId, reviewReviewers.requestId))
      .where(eq(reviewRequests.assetId, assetId))
      .orderBy(asc(reviewReviewers.ctime), asc(sql`"review_reviewers"."rowid"`)),
    db.select().from(reviewDecisions).where(eq(reviewDecisions.assetId, assetId)).orderBy(asc(reviewDecisions.ctime), asc(sql`rowid`)),
  ]);
  const rounds = new Map<number, Round>();
  const round = (version: number) => {
    const r = rounds.get(version) ?? emptyRound(version);
    rounds.set(version, r);
    return r;
  };
  for (const q of requests) {
    const r = round(q.version);
    r.request = q;
    r.reviewers = reviewers.filter((x) => x.requestId === q.requestId).map((x) => x.userId);
  }
  for (const d of decisions) round(d.version).decisions.push(d);
  return rounds;
}

const emptyRound = (version: number): Round => ({ version, request: null, reviewers: [], decisions: [] });

/** The event that tells the journal and automations (trigger review.status-changed) a round's status moved. */
function statusEvent(userId: string | null, assetId: string, round: Round, from: OverallStatus, to: OverallStatus): EventInput[] {
  if (from === to) return [];
  return [
    {
      kind: "review.status-changed",
      userId,
      entityType: "asset",
      entityId: assetId,
      data: { version: round.version, from, to, status: to, request_id: round.request?.requestId ?? null },
    },
  ];
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const email = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Reviewers as user ids: an id, or the e-mail address that is a user's login; a 400 names each one that is neither.
 * Addresses that are nobody's login (`external`, with their index) are left to the caller: they get review links.
 */
async function reviewerIds(db: Db, assetId: string, all: string[]) {
  const taken = await loginsTaken(
    db,
    all.filter((g) => email.test(g)),
  );
  const external = all.map((g, i) => ({ email: g.toLowerCase(), index: i })).filter((g) => email.test(g.email) && !taken.has(g.email));
  const given = all.filter((_, i) => !external.some((e) => e.index === i));
  const users = await userReviewers(db, assetId, all, given);
  return { users, external };
}

/** Which of these addresses are logins (of enabled or disabled users: a disabled user's address is no outsider's). */
async function loginsTaken(db: Db, addresses: string[]) {
  if (!addresses.length) return new Set<string>();
  const rows = await db
    .select({ login: users.login })
    .from(users)
    .where(sql`lower(${users.login}) IN ${idList(addresses.map((a) => a.toLowerCase()))}`);
  return new Set(rows.map((r) => r.login.toLowerCase()));
}

async function userReviewers(db: Db, assetId: string, all: string[], given: string[]): Promise<{ id: string; login: string }[]> {
  const byLogin = new Map(
    (
      await usersByLogin(
        db,
        given.filter((g) => email.test(g)),
      )
    ).map((u) => [u.login.toLowerCase(), u]),
  );
  const ids = given.filter((g) => uuid.test(g)).map((g) => g.toLowerCase());
  const byId = new Map(
    ids.length
      ? (
          await db
            .select({ userId: users.userId, login: users.login, enabled: users.enabled })
            .from(users)
            .where(inArray(users.userId, idList(ids)))
        ).map((u) => [u.userId, u])
      : [],
  );
  const found: ({ id: string; login: string } | null)[] = given.map((g) => {
    const u = uuid.test(g) ? byId.get(g.toLowerCase()) : byLogin.get(g.toLowerCase());
    return u && ("enabled" in u ? u.enabled : true) ? { id: u.userId, login: u.login } : null;
  });
  const readers = await readersOf(
    db,
    found.filter((f) => f).map((f) => f!.id),
    assetId,
  );
  const details: ErrorDetail[] = [];
  given.forEach((g, j) => {
    const f = found[j];
    const i = all.indexOf(g);
    if (!f && email.test(g))
      details.push({
        field: `reviewers.${i}`,
        message: "пользователь с таким логином отключён",
      });
    else if (!f)
      details.push({
        field: `reviewers.${i}`,
        message: uuid.test(g) ? "нет такого пользователя (или он отключён)" : "id пользователя или адрес e-mail",
      });
    else if (!readers.has(f.id)) details.push({ field: `reviewers.${i}`, message: "у пользователя нет права read на этот файл" });
  });
  if (details.length) throw new ApiError("validation", `Рецензенты: ${details[0].message}`, details);
  const seen = new Set<string>();
  return found.filter((f) => f && !seen.has(f.id) && seen.add(f.id)) as { id: string; login: string }[];
}

/**
 * Asks reviewers to approve a version (update on the asset); a second request on the version adds reviewers to its
 * round. Addresses that are nobody's login get review links (./guest-links.ts), answered in `links` and mailed.
 */
export async function createRequest(db: Db, env: Env, auth: AuthUser, b: RequestBody, origin: string) {
  const perms = await assetPerms(db, auth, b.asset_id);
  if (!perms.includes("update")) throw new ApiError("forbidden", "Недостаточно прав: нужно право «update»");
  const version = await resolveVersion(db, b.asset_id, b.version);
  const { users: reviewers, external } = await reviewerIds(db, b.asset_id, b.reviewers);
  const now = nowSeconds();
  const guests = await guestLinks(db, auth, perms, b, version, external, now);
  const ids = [...reviewers.map((r) => r.id), ...guests.links.map((l) => l.reviewerId!)];
  const before = (await loadRounds(db, b.asset_id)).get(version) ?? emptyRound(version);
  const request: ReviewRequest = before.request
    ? {
        ...before.request,
        allMustApprove: b.all_must_approve ?? before.request.allMustApprove,
        due: b.due ?? before.request.due,
        mtime: now,
      }
    : {
        requestId: newId(),
        assetId: b.asset_id,
        version,
        allMustApprove: b.all_must_approve ?? false,
        due: b.due ?? null,
        userId: auth.userId,
        ctime: now,
        mtime: now,
      };
  const after: Round = { ...before, request, reviewers: [...new Set([...before.reviewers, ...ids])] };
  const added = reviewers.filter((r) => !before.reviewers.includes(r.id));
  const events: EventInput[] = [
    {
      kind: "review.request",
      userId: auth.userId,
      entityType: "asset",
      entityId: b.asset_id,
      data: {
        request_id: request.requestId,
        version,
        reviewers: ids,
        ...(guests.links.length ? { guests: guests.links.length } : {}),
        all_must_approve: request.allMustApprove,
      },
    },
    ...statusEvent(auth.userId, b.asset_id, after, overallOf(before), overallOf(after)),
  ];
  await db.batch([
    db
      .insert(reviewRequests)
      .values(request)
      .onConflictDoUpdate({
        target: [reviewRequests.assetId, reviewRequests.version],
        set: { allMustApprove: request.allMustApprove, due: request.due, mtime: now },
      }),
    ...guestLinkWrites(db, auth, guests.fresh),
    ...ids.map((id) =>
      // By the round's row as it stands after the upsert: a request made at the same moment by someone else is the same round.
      db
        .insert(reviewReviewers)
        .select(
          db
            .select({
              requestId: reviewRequests.requestId,
              userId: sql<string>`${id}`.as("user_id"),
              ctime: sql<number>`${now}`.as("ctime"),
            })
            .from(reviewRequests)
            .where(and(eq(reviewRequests.assetId, b.asset_id), eq(reviewRequests.version, version))),
        )
        .onConflictDoNothing(),
    ),
    ...events.map((e) => eventInsert(db, e)),
    ...requestRows(db, {
      requestId: request.requestId,
      assetId: b.asset_id,
      version,
      actorId: auth.userId,
      userIds: added.map((r) => r.id),
      now,
    }),
  ]);
  const name = added.length || guests.links.length ? await assetName(db, b.asset_id) : "";
  if (added.length) {
    const subject = `${auth.userName} просит согласовать «${name}», версия ${version}`;
    await mailUsers(
      env,
      added.map((r) => r.login),
      subject,
      `${subject}.\n\n${origin}/asset/${b.asset_id}`,
    );
  }
  await mailGuestLinks(db, env, auth, guests.links, name, origin);
  return {
    request_id: request.requestId,
    version,
    links: guests.links.map((l) => ({ email: l.emails[0], url: `${origin}${reviewPath(l.linkId)}` })),
  };
}

/** A decision by a requested reviewer, or by anyone with update on the asset. */
export async function decide(db: Db, auth: AuthUser, assetId: string, b: DecisionBody) {
  const perms = await assetPerms(db, auth, assetId);
  const version = await resolveVersion(db, assetId, b.version);
  const before = await roundOf(db, assetId, version);
  if (!before.reviewers.includes(auth.userId) && !perms.includes("update"))
    throw new ApiError("forbidden", "Решение принимают рецензенты, которых об этом попросили, или те, у кого есть право «update» на файл");
  await recordDecision(db, { id: auth.userId, guestName: null }, assetId, before, b);
  return approvalOf(db, assetId, version, perms.includes("update"));
}

export const roundOf = async (db: Db, assetId: string, version: number) =>
  (await loadRounds(db, assetId)).get(version) ?? emptyRound(version);

/**
 * Stores a decision with its events. `by` is a user, or a review link's guest: their link's reviewer id and the
 * name they gave (the events then name no user).
 */
export async function recordDecision(
  db: Db,
  by: CommentAuthor,
  assetId: string,
  before: Round,
  b: { status: DecisionBody["status"]; note?: string },
) {
  const guest = by.guestName !== null;
  const decision: ReviewDecision = {
    decisionId: newId(),
    assetId,
    version: before.version,
    userId: by.id,
    status: b.status,
    note: b.note ?? "",
    guestName: by.guestName,
    ctime: nowSeconds(),
  };
  const after: Round = { ...before, decisions: [...before.decisions, decision] };
  const userId = guest ? null : by.id;
  const events: EventInput[] = [
    {
      kind: "review.decision",
      userId,
      entityType: "asset",
      entityId: assetId,
      data: { version: before.version, status: b.status, ...(b.note ? { note: b.note } : {}), ...(guest ? { guest: by.guestName } : {}) },
    },
    ...statusEvent(userId, assetId, after, overallOf(before), overallOf(after)),
  ];
  await db.batch([db.insert(reviewDecisions).values(decision), ...events.map((e) => eventInsert(db, e))]);
  return after;
}

/** Guests of review links by reviewer id: the address, and the name they last gave with a decision or a comment. */
async function guestsOf(db: Db, assetId: string) {
  const [links, named] = await db.batch([
    db
      .select({ reviewerId: shareLinks.reviewerId, emails: shareLinks.emails })
      .from(shareLinks)
      .where(and(eq(shareLinks.assetId, assetId), eq(shareLinks.kind, "review"))),
    db
      .select({ userId: reviewComments.userId, name: reviewComments.guestName })
      .from(reviewComments)
      .where(and(eq(reviewComments.assetId, assetId), isNotNull(reviewComments.guestName)))
      .orderBy(asc(reviewComments.ctime), asc(sql`rowid`)),
  ]);
  const names = new Map(named.map((n) => [n.userId ?? "", n.name ?? ""]));
  return new Map(links.map((l) => [l.reviewerId ?? "", { email: l.emails[0] ?? null, name: names.get(l.reviewerId ?? "") ?? null }]));
}

type Guests = Awaited<ReturnType<typeof guestsOf>>;

function roundOut(r: Round, names: Map<string, string>, guests: Guests, seesEmails: boolean): RoundOut {
  const latest = latestOf(r.decisions);
  const ids = [...r.reviewers, ...[...latest.keys()].filter((u) => !r.reviewers.includes(u))];
  const nameOf = (u: string) => latest.get(u)?.guestName ?? guests.get(u)?.name ?? names.get(u) ?? null;
  return {
    version: r.version,
    request_id: r.request?.requestId ?? null,
    all_must_approve: r.request?.allMustApprove ?? false,
    due: r.request?.due ?? null,
    overall: overallOf(r),
    reviewers: ids.map((u) => {
      const d = latest.get(u);
      return {
        user_id: u,
        name: nameOf(u),
        requested: r.reviewers.includes(u),
        guest: guests.has(u),
        email: seesEmails ? (guests.get(u)?.email ?? null) : null,
        status: d?.status ?? "pending",
        note: d?.note ?? "",
        ctime: d?.ctime ?? null,
      };
    }),
    decisions: r.decisions.map((d) => ({
      user_id: d.userId,
      name: d.guestName ?? names.get(d.userId) ?? null,
      guest: d.guestName !== null,
      status: d.status,
      note: d.note,
      ctime: d.ctime,
    })),
  };
}

export async function approvalOf(db: Db, assetId: string, version: number, seesEmails: boolean): Promise<ApprovalOut> {
  const rounds = await loadRounds(db, assetId);
  if (!rounds.has(version)) rounds.set(version, emptyRound(version));
  const all = [...rounds.values()].sort((a, b) => b.version - a.version);
  const names = await userNames(
    db,
    all.flatMap((r) => [...r.reviewers, ...r.decisions.map((d) => d.userId)]),
  );
  const guests = await guestsOf(db, assetId);
  const outs = all.map((r) => roundOut(r, names, guests, seesEmails));
  return { asset_id: assetId, ...outs.find((r) => r.version === version)!, rounds: outs };
}

export async function getApproval(db: Db, auth: AuthUser, assetId: string, v?: number) {
  const perms = await assetPerms(db, auth, assetId);
  return approvalOf(db, assetId, await resolveVersion(db, assetId, v), perms.includes("update"));
}
