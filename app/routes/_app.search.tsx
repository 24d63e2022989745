import { PagePlaceholder } from "../components/PagePlaceholder";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.search);

export default function SearchPage() {
  return <PagePlaceholder title={ru.pages.search} />;
}
