import { AccessTabs } from "../components/admin/AccessTabs";
import { PagePlaceholder } from "../components/PagePlaceholder";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.activeUsers);

export default function ActiveUsersPage() {
  return (
    <PagePlaceholder title={ru.pages.access}>
      <AccessTabs />
    </PagePlaceholder>
  );
}
