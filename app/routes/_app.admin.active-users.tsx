import { AccessLayout } from "../components/admin/AccessLayout";
import { UsersScreen } from "../components/admin/UsersScreen";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.activeUsers);

export default function ActiveUsersPage() {
  return (
    <AccessLayout>
      <UsersScreen enabled />
    </AccessLayout>
  );
}
