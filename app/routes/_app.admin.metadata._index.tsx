import { PagePlaceholder } from "../components/PagePlaceholder";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.metadata);

export default function MetadataPage() {
  return <PagePlaceholder title={ru.pages.metadata} />;
}
