import { Text } from "@mantine/core";
import { useParams } from "@remix-run/react";
import { PagePlaceholder } from "../components/PagePlaceholder";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.fileViewer);

/** File viewer for asset {id} opened from group {idGroup}. */
export default function FileViewerPage() {
  const { idGroup, id } = useParams();
  return (
    <PagePlaceholder title={ru.pages.fileViewer}>
      <Text c="dimmed" size="sm">
        {idGroup} / {id}
      </Text>
    </PagePlaceholder>
  );
}
