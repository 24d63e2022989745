import { Text } from "@mantine/core";
import { useParams } from "@remix-run/react";
import { PagePlaceholder } from "../components/PagePlaceholder";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.group);

export default function GroupPage() {
  const { idGroup } = useParams();
  return (
    <PagePlaceholder title={ru.pages.group}>
      <Text c="dimmed" size="sm">{idGroup}</Text>
    </PagePlaceholder>
  );
}
