import { Text } from "@mantine/core";
import { useParams } from "@remix-run/react";
import { PagePlaceholder } from "../components/PagePlaceholder";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.metadataItem);

export { RouteError as ErrorBoundary } from "../components/RouteError";

export default function MetadataItemPage() {
  const { id } = useParams();
  return (
    <PagePlaceholder title={ru.pages.metadataItem}>
      <Text c="dimmed" size="sm">
        {id}
      </Text>
    </PagePlaceholder>
  );
}
