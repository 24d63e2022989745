import { getUser } from "../../lib/admin-api";
import { ApiError } from "../../lib/api";
import { runAction } from "../../lib/actions";
import { sessionStore } from "../../lib/session";
import type { AppliedRule } from "./viewer-api";

/**
 * Names for the user ids on the asset info screen (owner, creator). Reading users is for admins
 * (GET /api/user/{id}); anyone knows their own name, and those who may see who has access know the names
 * in that list. An id none of these names stays an id (decision 014). A user deleted since is no error.
 */
export async function userNames(ids: (string | null)[], rules: AppliedRule[] | null): Promise<Record<string, string>> {
  const me = sessionStore.get().user;
  const names: Record<string, string> = {};
  if (me) names[me.id] = me.name;
  for (const rule of rules ?? []) if (rule.subj_type === "user" && rule.subj_id && rule.subj_name) names[rule.subj_id] = rule.subj_name;
  const unknown = [...new Set(ids)].filter((id): id is string => !!id && !(id in names));
  if (me?.is_admin) {
    await Promise.all(
      unknown.map(async (id) => {
        const user = await runAction(() =>
          getUser(id).catch((error) => (error instanceof ApiError && error.status === 404 ? null : Promise.reject(error))),
        );
        if (user) names[id] = user.user_name;
      }),
    );
  }
  return names;
}
