import { PagePlaceholder } from "../components/PagePlaceholder";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.automations);

export default function AutomationsPage() {
  return <PagePlaceholder title={ru.pages.automations} />;
}
