import { useRevalidator } from "@remix-run/react";
import { addTeamMembers, removeTeamMembers } from "../../lib/admin-api";
import { runAction } from "../../lib/actions";
import { showInfo } from "../../lib/notify";

/**
 * Adds a user to a group's team or takes them out, one pair at a time (insert-members/delete-members), so two
 * admins editing at once do not undo each other. The group's screen and the user's screen both edit the same
 * pairs; only what the toast says differs.
 */
export function useTeamMembership(said: { added: string; removed: string }) {
  const { revalidate } = useRevalidator();
  async function add(groupId: string, userId: string) {
    if ((await runAction(() => addTeamMembers(groupId, [userId]))) === undefined) return false;
    showInfo(said.added);
    revalidate();
    return true;
  }
  async function remove(groupId: string, userId: string) {
    if ((await runAction(() => removeTeamMembers(groupId, [userId]))) === undefined) return;
    showInfo(said.removed);
    revalidate();
  }
  return { add, remove };
}
