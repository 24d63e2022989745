import { useRouteLoaderData } from "@remix-run/react";
import type { AdminUser, ApiToken, GroupRow, SsoLinkRow, Storage } from "../../lib/admin-api";

/** What the /admin/user/{id} layout loads: the user, a robot's tokens and their single sign-on links. */
export interface AdminUserData {
  user: AdminUser;
  tokens: ApiToken[];
  links: SsoLinkRow[];
}
/** What the /admin/group/{id} layout loads: the group and the storages its default can be set to. */
export interface AdminGroupData {
  group: GroupRow;
  storages: Storage[];
}

/** The layouts' data read by their tabs (docs/decisions/029: loaded once, by the layout). */
export const useAdminUser = () => useRouteLoaderData("routes/_app.admin.user.$id") as AdminUserData;
export const useAdminGroup = () => useRouteLoaderData("routes/_app.admin.group.$id") as AdminGroupData;
