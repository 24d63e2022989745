import { ru } from "../../i18n/ru";
import { RouteTabs } from "../RouteTabs";

/** /admin/active-users, /admin/inactive-users and /admin/groups are tabs of one access screen (/admin/access opens the first). */
export function AccessTabs() {
  return (
    <RouteTabs
      tabs={[
        { to: "/admin/active-users", label: ru.pages.activeUsers },
        { to: "/admin/inactive-users", label: ru.pages.inactiveUsers },
        { to: "/admin/groups", label: ru.pages.groups },
      ]}
    />
  );
}
