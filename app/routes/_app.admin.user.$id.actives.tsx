import { useLoaderData } from "@remix-run/react";
import { useAdminUser } from "../components/admin/context";
import { RulesPanel } from "../components/admin/RulesPanel";
import { ru } from "../i18n/ru";
import { userRules } from "../lib/admin-api";
import { pageMeta } from "../lib/meta";
import { screenLoader } from "../lib/route-data";

export const meta = pageMeta(ru.pages.userActives);

export const clientLoader = screenLoader(async ({ params, request }) => ({ rules: await userRules(params.id ?? "", request.signal) }));

export { RouteError as ErrorBoundary } from "../components/RouteError";

/** The user's access rules. */
export default function UserActivesTab() {
  const { rules } = useLoaderData<typeof clientLoader>();
  const { user } = useAdminUser();
  return <RulesPanel anchor={{ id: user.user_id, type: "user", name: user.user_name }} rules={rules} />;
}
