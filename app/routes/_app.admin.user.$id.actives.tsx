import { useAdminUser } from "../components/admin/context";
import { RulesPanel } from "../components/admin/RulesPanel";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.userActives);

/** The user's access rules. */
export default function UserActivesTab() {
  const { user } = useAdminUser();
  return <RulesPanel anchor={{ id: user.user_id, type: "user", name: user.user_name }} />;
}
