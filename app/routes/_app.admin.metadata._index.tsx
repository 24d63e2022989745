import { PagePlaceholder } from "../components/PagePlaceholder";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.metadata);

export { RouteError as ErrorBoundary } from "../components/RouteError";

export default function MetadataPage() {
  return <PagePlaceholder title={ru.pages.metadata} />;
}
