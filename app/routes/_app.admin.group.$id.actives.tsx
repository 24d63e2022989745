import { useLoaderData } from "@remix-run/react";
import { useAdminGroup } from "../components/admin/context";
import { RulesPanel } from "../components/admin/RulesPanel";
import { ru } from "../i18n/ru";
import { groupRules } from "../lib/admin-api";
import { pageMeta } from "../lib/meta";
import { screenLoader } from "../lib/route-data";

export const meta = pageMeta(ru.pages.groupActives);

export const clientLoader = screenLoader(async ({ params, request }) => ({ rules: await groupRules(params.id ?? "", request.signal) }));

export { RouteError as ErrorBoundary } from "../components/RouteError";

/** Rules on the group and of it as a team. */
export default function GroupActivesTab() {
  const { rules } = useLoaderData<typeof clientLoader>();
  const { group } = useAdminGroup();
  return <RulesPanel anchor={{ id: group.group_id, type: "group", name: group.group_name }} rules={rules} />;
}
