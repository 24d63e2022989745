import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { type ReviewDecision, type ReviewRequest, reviewDecisions, reviewRequests, reviewReviewers, users } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError, type ErrorDetail } from "../lib/errors";
import { eventInsert, type EventInput } from "../lib/events";
import { newId } from "../lib/ids";
import { idList } from "../lib/sql";
import { resolveVersion } from "../transcripts/service";
import { assetName, assetPerms, mailUsers, readersOf, userNames, usersByLogin } from "./common";
import { requestRows } from "./inbox";
import type { ApprovalOut, DecisionBody, OverallStatus, RequestBody, RoundOut } from "./schemas";

/**
 * Approval per version (docs/decisions/061-review-and-approval.md). A version's round is its request (reviewers,
 * the any/all rule, a due date) and every decision made on it; a new version starts a new round, earlier rounds stay.
 */

interface Round {
  version: number;
  request: ReviewRequest | null;
  reviewers: string[];
  decisions: ReviewDecision[];
}

/** Each user's latest decision (decisions come oldest first). */
const latestOf = (decisions: ReviewDecision[]) => new Map(decisions.map((d) => [d.userId, d]));

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
function statusEvent(auth: AuthUser, assetId: string, round: Round, from: OverallStatus, to: OverallStatus): EventInput[] {
  if (from === to) return [];
  return [
    {
      kind: "review.status-changed",
      userId: auth.userId,
      entityType: "asset",
      entityId: assetId,
      data: { version: round.version, from, to, status: to, request_id: round.request?.requestId ?? null },
    },
  ];
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const email = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Reviewers as user ids: an id, or the e-mail address that is a user's login; a 400 names each one that is neither. */
async function reviewerIds(db: Db, assetId: string, given: string[]): Promise<{ id: string; login: string }[]> {
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
  given.forEach((g, i) => {
    const f = found[i];
    if (!f && email.test(g))
      details.push({
        field: `reviewers.${i}`,
        message: "нет пользователя с таким логином; приглашение по e-mail без учётной записи ещё не сделано",
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

/** Asks reviewers to approve a version (update on the asset); a second request on the version adds reviewers to its round. */
export async function createRequest(db: Db, env: Env, auth: AuthUser, b: RequestBody, origin: string) {
  const perms = await assetPerms(db, auth, b.asset_id);
  if (!perms.includes("update")) throw new ApiError("forbidden", "Недостаточно прав: нужно право «update»");
  const version = await resolveVersion(db, b.asset_id, b.version);
  const reviewers = await reviewerIds(db, b.asset_id, b.reviewers);
  const before = (await loadRounds(db, b.asset_id)).get(version) ?? emptyRound(version);
  const now = nowSeconds();
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
  const after: Round = { ...before, request, reviewers: [...new Set([...before.reviewers, ...reviewers.map((r) => r.id)])] };
  const added = reviewers.filter((r) => !before.reviewers.includes(r.id));
  const events: EventInput[] = [
    {
      kind: "review.request",
      userId: auth.userId,
      entityType: "asset",
      entityId: b.asset_id,
      data: { request_id: request.requestId, version, reviewers: reviewers.map((r) => r.id), all_must_approve: request.allMustApprove },
    },
    ...statusEvent(auth, b.asset_id, after, overallOf(before), overallOf(after)),
  ];
  await db.batch([
    db
      .insert(reviewRequests)
      .values(request)
      .onConflictDoUpdate({
        target: [reviewRequests.assetId, reviewRequests.version],
        set: { allMustApprove: request.allMustApprove, due: request.due, mtime: now },
      }),
    ...reviewers.map((r) =>
      // By the round's row as it stands after the upsert: a request made at the same moment by someone else is the same round.
      db
        .insert(reviewReviewers)
        .select(
          db
            .select({
              requestId: reviewRequests.requestId,
              userId: sql<string>`${r.id}`.as("user_id"),
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
  if (added.length) {
    const subject = `${auth.userName} просит согласовать «${await assetName(db, b.asset_id)}», версия ${version}`;
    await mailUsers(
      env,
      added.map((r) => r.login),
      subject,
      `${subject}.\n\n${origin}/asset/${b.asset_id}`,
    );
  }
  return { request_id: request.requestId, version, links: [] as { email: string; url: string }[] };
}

/** A decision by a requested reviewer, or by anyone with update on the asset. */
export async function decide(db: Db, auth: AuthUser, assetId: string, b: DecisionBody) {
  const perms = await assetPerms(db, auth, assetId);
  const version = await resolveVersion(db, assetId, b.version);
  const before = (await loadRounds(db, assetId)).get(version) ?? emptyRound(version);
  if (!before.reviewers.includes(auth.userId) && !perms.includes("update"))
    throw new ApiError("forbidden", "Решение принимают рецензенты, которых об этом попросили, или те, у кого есть право «update» на файл");
  const now = nowSeconds();
  const decision: ReviewDecision = {
    decisionId: newId(),
    assetId,
    version,
    userId: auth.userId,
    status: b.status,
    note: b.note ?? "",
    ctime: now,
  };
  const after: Round = { ...before, decisions: [...before.decisions, decision] };
  const events: EventInput[] = [
    {
      kind: "review.decision",
      userId: auth.userId,
      entityType: "asset",
      entityId: assetId,
      data: { version, status: b.status, ...(b.note ? { note: b.note } : {}) },
    },
    ...statusEvent(auth, assetId, after, overallOf(before), overallOf(after)),
  ];
  await db.batch([db.insert(reviewDecisions).values(decision), ...events.map((e) => eventInsert(db, e))]);
  return approvalOf(db, assetId, version);
}

function roundOut(r: Round, names: Map<string, string>): RoundOut {
  const latest = latestOf(r.decisions);
  const ids = [...r.reviewers, ...[...latest.keys()].filter((u) => !r.reviewers.includes(u))];
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
        name: names.get(u) ?? null,
        requested: r.reviewers.includes(u),
        status: d?.status ?? "pending",
        note: d?.note ?? "",
        ctime: d?.ctime ?? null,
      };
    }),
    decisions: r.decisions.map((d) => ({
      user_id: d.userId,
      name: names.get(d.userId) ?? null,
      status: d.status,
      note: d.note,
      ctime: d.ctime,
    })),
  };
}

async function approvalOf(db: Db, assetId: string, version: number): Promise<ApprovalOut> {
  const rounds = await loadRounds(db, assetId);
  if (!rounds.has(version)) rounds.set(version, emptyRound(version));
  const all = [...rounds.values()].sort((a, b) => b.version - a.version);
  const names = await userNames(
    db,
    all.flatMap((r) => [...r.reviewers, ...r.decisions.map((d) => d.userId)]),
  );
  const outs = all.map((r) => roundOut(r, names));
  return { asset_id: assetId, ...outs.find((r) => r.version === version)!, rounds: outs };
}

export async function getApproval(db: Db, auth: AuthUser, assetId: string, v?: number) {
  await assetPerms(db, auth, assetId);
  return approvalOf(db, assetId, await resolveVersion(db, assetId, v));
}
