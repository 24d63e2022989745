import { Stack, Title } from "@mantine/core";
import { ru } from "../../i18n/ru";
import { useStore } from "../../lib/store";
import { treeStore } from "./tree-store";

/** The open group's contents (filled in by the contents pane). */
export function GroupContents({ groupId }: { groupId: string }) {
  const node = useStore(treeStore)[groupId];
  return (
    <Stack gap="sm" aria-label={ru.mam.contents}>
      <Title order={3}>{node?.group_name ?? ru.mam.loading}</Title>
    </Stack>
  );
}
