import { useOutletContext } from "@remix-run/react";
import type { AdminUser, GroupRow } from "../../lib/admin-api";

/** What the /admin/user/{id} and /admin/group/{id} layouts hand to their tabs. */
export interface AdminUserContext {
  user: AdminUser;
}
export interface AdminGroupContext {
  group: GroupRow;
}

export const useAdminUser = () => useOutletContext<AdminUserContext>();
export const useAdminGroup = () => useOutletContext<AdminGroupContext>();
