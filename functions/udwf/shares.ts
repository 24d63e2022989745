import { eq, inArray, or, sql } from "drizzle-orm";
import { groups, udwfShares, users } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { accessContext, permissionsOn, resolveObjects } from "../lib/access";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import type { ErrorDetail } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { idList } from "../lib/sql";
import { invalidFields } from "../lib/validation";
import type { SharesBody, SharesOut } from "../../shared/udwf/schemas";
import { loadWorkflow } from "./service";

/**
 * Sharing a workflow (docs/decisions/050-automations-speed-sharing-link-opened.md): its owner (or an admin) names
 * users and teams that may view it or edit and run it. The list is replaced whole.
 */

/** The shares with names: for the owner, and for those it is shared with (who else holds it). */
export async function listShares(db: Db, auth: AuthUser, id: string): Promise<SharesOut> {
  await loadWorkflow(db, auth, id, "view");
  const rows = await db.select().from(udwfShares).where(eq(udwfShares.workflowId, id)).orderBy(udwfShares.ctime);
  const userIds = rows.filter((r) => r.subjType === "user").map((r) => r.subjId);
  const teamIds = rows.filter((r) => r.subjType === "team").map((r) => r.subjId);
  const [userRows, teamRows] = await db.batch([
    db
      .select({ id: users.userId, name: users.userName, login: users.login })
      .from(users)
      .where(inArray(users.userId, idList(userIds))),
    db
      .select({ id: groups.groupId, name: groups.groupName })
      .from(groups)
      .where(inArray(groups.groupId, idList(teamIds))),
  ]);
  const userOf = new Map(userRows.map((u) => [u.id, u]));
  const teamOf = new Map(teamRows.map((t) => [t.id, t]));
  return {
    items: rows.map((r) => ({
      subject_type: r.subjType,
      subject_id: r.subjId,
      name: (r.subjType === "user" ? userOf.get(r.subjId)?.name : teamOf.get(r.subjId)?.name) ?? null,
      login: r.subjType === "user" ? (userOf.get(r.subjId)?.login ?? null) : null,
      role: r.role,
    })),
  };
}

/**
 * Replaces the shares. Users are named by login or id (an unknown one is a 400 naming `shares.N.subject`); a team
 * must be a group the owner can read (sharing never shows the owner a team it cannot see). The owner is never a
 * share of their own workflow.
 */
export async function setShares(db: Db, auth: AuthUser, id: string, body: SharesBody) {
  const { wf } = await loadWorkflow(db, auth, id, "owner");
  const details: ErrorDetail[] = [];
  const userNames = body.shares.filter((s) => s.subject_type === "user").map((s) => s.subject);
  const found = userNames.length
    ? await db
        .select({ id: users.userId, login: users.login })
        .from(users)
        .where(
          or(inArray(users.userId, idList(userNames)), inArray(sql`lower(${users.login})`, idList(userNames.map((n) => n.toLowerCase())))),
        )
    : [];
  const teamIds = body.shares.filter((s) => s.subject_type === "team").map((s) => s.subject);
  const [ctx, objects] = await Promise.all([accessContext(db, auth), resolveObjects(db, teamIds)]);
  const rows = new Map<string, { subjType: "user" | "team"; subjId: string; role: "view" | "edit" }>();
  for (const [i, s] of body.shares.entries()) {
    const field = `shares.${i}.subject`;
    let subjId: string | undefined;
    if (s.subject_type === "user") {
      subjId = found.find((u) => u.id === s.subject || u.login.toLowerCase() === s.subject.toLowerCase())?.id;
      if (!subjId) {
        details.push({ field, message: "нет такого пользователя" });
        continue;
      }
      if (subjId === wf.owner) {
        details.push({ field, message: "это владелец автоматизации" });
        continue;
      }
    } else {
      const g = objects.get(s.subject);
      if (g?.type !== "group" || !permissionsOn(ctx, g)) {
        details.push({ field, message: "нет такой команды (группы)" });
        continue;
      }
      subjId = g.id;
    }
    const key = `${s.subject_type}:${subjId}`;
    if (rows.has(key)) {
      details.push({ field, message: "уже есть в списке" });
      continue;
    }
    rows.set(key, { subjType: s.subject_type, subjId, role: s.role });
  }
  if (details.length) throw invalidFields(details);
  const now = nowSeconds();
  const values = [...rows.values()].map((r) => ({ workflowId: id, ...r, ctime: now }));
  const inserts = [];
  // Sixteen rows (80 values) a statement: D1 binds at most 100.
  for (let i = 0; i < values.length; i += 16) inserts.push(db.insert(udwfShares).values(values.slice(i, i + 16)));
  await db.batch([
    db.delete(udwfShares).where(eq(udwfShares.workflowId, id)),
    ...inserts,
    eventInsert(db, {
      kind: "workflow.share",
      userId: auth.userId,
      entityType: "workflow",
      entityId: id,
      data: { shares: values.map((v) => ({ type: v.subjType, id: v.subjId, role: v.role })) },
    }),
  ]);
  return { ok: true as const };
}
