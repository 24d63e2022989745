import { PagePlaceholder } from "../components/PagePlaceholder";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.admin);

export default function AdminPage() {
  return (
    <PagePlaceholder title={ru.pages.admin} />
  );
}
