import { useAdminGroup } from "../components/admin/context";
import { RulesPanel } from "../components/admin/RulesPanel";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.groupActives);

/** Rules on the group and of it as a team. */
export default function GroupActivesTab() {
  const { group } = useAdminGroup();
  return <RulesPanel anchor={{ id: group.group_id, type: "group", name: group.group_name }} />;
}
