import { Text } from "@mantine/core";
import { useParams } from "@remix-run/react";
import { PagePlaceholder } from "../components/PagePlaceholder";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.automation);

export default function AutomationPage() {
  const { id } = useParams();
  return (
    <PagePlaceholder title={ru.pages.automation}>
      <Text c="dimmed" size="sm">
        {id}
      </Text>
    </PagePlaceholder>
  );
}
