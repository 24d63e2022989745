import { AccessLayout } from "../components/admin/AccessLayout";
import { UsersScreen, usersLoader } from "../components/admin/UsersScreen";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.inactiveUsers);

export const clientLoader = usersLoader(false);

export { AccessError as ErrorBoundary } from "../components/admin/AccessLayout";

export default function InactiveUsersPage() {
  return (
    <AccessLayout>
      <UsersScreen />
    </AccessLayout>
  );
}
