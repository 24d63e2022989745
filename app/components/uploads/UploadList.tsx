import { Group, Paper, Progress, ScrollArea, Stack, Text } from "@mantine/core";
import { ru } from "../../i18n/ru";
import { formatCount } from "../../lib/format";
import type { UploadItem } from "../../lib/uploads";
import { IconUpload } from "../icons";

export default function UploadList({ items }: { items: readonly UploadItem[] }) {
  return (
    <Paper
      withBorder
      shadow="md"
      p="sm"
      w={360}
      pos="fixed"
      bottom={16}
      left={16}
      style={{ zIndex: 300 }}
      aria-label={ru.uploads.title}
    >
      <Group gap="xs" mb="xs">
        <IconUpload />
        <Text fw={600}>{ru.uploads.title}</Text>
        <Text c="dimmed" size="sm">
          {formatCount(items.length, ru.uploads.files)}
        </Text>
      </Group>
      <ScrollArea.Autosize mah={240}>
        <Stack gap={6}>
          {items.map((item) => (
            <div key={`${item.ctime}-${item.file.name}`}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text size="sm" truncate>
                  {item.file.name}
                </Text>
                <Text size="xs" c={item.status === "error" ? "red" : "dimmed"}>
                  {ru.uploads.status[item.status]}
                </Text>
              </Group>
              <Progress value={item.progress} size="xs" color={item.status === "error" ? "red" : undefined} />
            </div>
          ))}
        </Stack>
      </ScrollArea.Autosize>
    </Paper>
  );
}
