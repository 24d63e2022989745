import { AccessLayout } from "../components/admin/AccessLayout";
import { GroupsScreen, groupsLoader } from "../components/admin/GroupsScreen";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.groups);

export const clientLoader = groupsLoader;

export { AccessError as ErrorBoundary } from "../components/admin/AccessLayout";

export default function GroupsPage() {
  return (
    <AccessLayout>
      <GroupsScreen />
    </AccessLayout>
  );
}
