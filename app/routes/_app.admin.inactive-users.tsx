import { AccessLayout } from "../components/admin/AccessLayout";
import { UsersScreen } from "../components/admin/UsersScreen";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.inactiveUsers);

export default function InactiveUsersPage() {
  return (
    <AccessLayout>
      <UsersScreen enabled={false} />
    </AccessLayout>
  );
}
