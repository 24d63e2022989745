import { AccessLayout } from "../components/admin/AccessLayout";
import { GroupsScreen } from "../components/admin/GroupsScreen";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.groups);

export default function GroupsPage() {
  return (
    <AccessLayout>
      <GroupsScreen />
    </AccessLayout>
  );
}
