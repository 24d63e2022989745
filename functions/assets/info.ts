import { asc, desc, eq, inArray } from "drizzle-orm";
import { users as usersTable, variants, versions } from "../../db/schema";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { idList } from "../lib/sql";
import { entityUserAccess } from "../users/acl";
import { readablePlacements } from "./guard";
import { techFields } from "./extra";
import { getAsset } from "./service";
import { viewVariant } from "../../shared/assets/variant-rights";
import { variantOut } from "./versions";

/**
 * The asset info screen in one answer: the card (404 when the caller may not read the asset, with its
 * permissions from the access engine), every version with its variants, the readable groups holding it, the
 * technical fields of the variant a viewer shows, who has access (only for a caller with `acl`) and the
 * names of the owner, the creator and the versions' authors the caller may know: its own, those it sees in the access list, and
 * any for an admin (who may read every user). An id no rule names stays an id (docs/decisions/014).
 */
export async function assetInfo(db: Db, auth: AuthUser, assetId: string) {
  const asset = await getAsset(db, auth, assetId);
  const [versionRows, variantRows, groups, users] = await Promise.all([
    db.select().from(versions).where(eq(versions.assetId, assetId)).orderBy(desc(versions.version)).all(),
    db.select().from(variants).where(eq(variants.assetId, assetId)).orderBy(asc(variants.ctime)).all(),
    readablePlacements(db, auth, assetId),
    asset.asset_access.includes("acl") ? entityUserAccess(db, auth, [assetId]).then(([r]) => r.rules) : null,
  ]);
  const byVersion = versionRows.map((v) => ({
    version: v.version,
    desc: v.desc,
    ctime: v.ctime,
    user_id: v.userId,
    variants: variantRows.filter((r) => r.version === v.version).map(variantOut),
  }));
  const main = viewVariant(byVersion[0]?.variants ?? []);
  const props = main ? (variantRows.find((r) => r.variantId === main.variant_id)?.techProps ?? {}) : {};
  return {
    asset,
    versions: byVersion,
    groups: groups.map(({ group_id, group_name }) => ({ group_id, group_name })),
    tech: { variant_id: main?.variant_id ?? null, fields: techFields(props) },
    users,
    names: await knownNames(
      db,
      auth,
      [asset.owner, asset.creator, ...versionRows.flatMap((v) => (v.userId ? [v.userId] : []))],
      users ?? [],
    ),
  };
}

type Rule = { subj_type: string; subj_id: string | null; subj_name: string | null };

async function knownNames(db: Db, auth: AuthUser, ids: string[], rules: Rule[]): Promise<Record<string, string>> {
  const names: Record<string, string> = { [auth.userId]: auth.userName };
  for (const r of rules) if (r.subj_type === "user" && r.subj_id && r.subj_name) names[r.subj_id] = r.subj_name;
  const unknown = [...new Set(ids)].filter((id) => !(id in names));
  if (auth.isAdmin && unknown.length) {
    const rows = await db
      .select({ id: usersTable.userId, name: usersTable.userName })
      .from(usersTable)
      .where(inArray(usersTable.userId, idList(unknown)))
      .all();
    for (const r of rows) names[r.id] = r.name;
  }
  return Object.fromEntries(Object.entries(names).filter(([id]) => ids.includes(id)));
}
