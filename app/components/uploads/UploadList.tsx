import { Button, CloseButton, Group, Paper, Progress, ScrollArea, Stack, Text } from "@mantine/core";
import { useEffect, useRef, useState } from "react";
import { ru } from "../../i18n/ru";
import { formatCount, formatDuration, formatSize } from "../../lib/format";
import { uploadQueue } from "../../lib/upload-client";
import type { UploadItem } from "../../lib/uploads";
import { IconUpload } from "../icons";
import { DuplicateCheck } from "./DuplicateCheck";
import { ResumeOffers } from "./ResumeOffers";

/** Bytes per second over the last few seconds of the overall count; null until there is something to measure. */
function useSpeed(loaded: number): number | null {
  const samples = useRef<[number, number][]>([]);
  const [speed, setSpeed] = useState<number | null>(null);
  const latest = useRef(loaded);
  latest.current = loaded;
  useEffect(() => {
    const timer = setInterval(() => {
      const now = performance.now();
      const list = [...samples.current, [now, latest.current] as [number, number]].filter(([t]) => now - t <= 5000);
      samples.current = list;
      const [t0, b0] = list[0];
      setSpeed(now - t0 >= 900 && latest.current >= b0 ? ((latest.current - b0) * 1000) / (now - t0) : null);
    }, 1000);
    return () => clearInterval(timer);
  }, []);
  return speed;
}

export default function UploadList({ items }: { items: readonly UploadItem[] }) {
  const active = items.filter((i) => i.status !== "error");
  const total = active.reduce((sum, i) => sum + i.file.size, 0);
  const loaded = active.reduce((sum, i) => sum + Math.min(i.loaded, i.file.size), 0);
  const speed = useSpeed(loaded);
  const running = items.some((i) => i.status !== "completed" && i.status !== "error");
  const finished = items.some((i) => i.status === "completed" || i.status === "error");

  return (
    <Paper
      withBorder
      shadow="md"
      p="sm"
      w={380}
      pos="fixed"
      bottom={16}
      left={16}
      style={{ zIndex: 300 }}
      aria-label={ru.uploads.title}
      role="region"
    >
      <Group gap="xs" mb="xs">
        <IconUpload />
        <Text fw={600}>{ru.uploads.title}</Text>
        <Text c="dimmed" size="sm">
          {formatCount(items.length, ru.uploads.files)}
        </Text>
      </Group>
      {items.length > 0 && (
        <div>
          <Group justify="space-between" gap="xs">
            <Text size="xs">
              {ru.upload.overall}: {formatSize(loaded)} / {formatSize(total)}
            </Text>
            {running && speed !== null && speed > 0 && (
              <Text size="xs" c="dimmed" data-testid="upload-speed">
                {ru.upload.speed(formatSize(speed))} · {ru.upload.timeLeft(formatDuration((total - loaded) / speed))}
              </Text>
            )}
          </Group>
          <Progress value={total ? (loaded / total) * 100 : 100} size="sm" mb="xs" aria-label={ru.upload.overall} />
        </div>
      )}
      <ScrollArea.Autosize mah={240}>
        <Stack gap={6}>
          {items.map((item) => (
            <div key={item.key} data-testid="upload-item" data-status={item.status} data-asset={item.assetId ?? ""}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text size="sm" truncate>
                  {item.file.name}
                </Text>
                <Group gap={4} wrap="nowrap">
                  <Text size="xs" c={item.status === "error" ? "red" : "dimmed"} title={item.error}>
                    {ru.uploads.status[item.status]}
                  </Text>
                  {item.status !== "completed" && (
                    <CloseButton
                      size="xs"
                      aria-label={`${ru.upload.cancel}: ${item.file.name}`}
                      onClick={() => uploadQueue().cancel(item.key)}
                    />
                  )}
                </Group>
              </Group>
              <Progress value={item.progress} size="xs" color={item.status === "error" ? "red" : undefined} aria-label={item.file.name} />
              {item.status === "completed" && item.assetId && <DuplicateCheck assetId={item.assetId} />}
            </div>
          ))}
        </Stack>
      </ScrollArea.Autosize>
      {finished && (
        <Button size="compact-xs" variant="subtle" mt="xs" onClick={() => uploadQueue().clearFinished()}>
          {ru.upload.clear}
        </Button>
      )}
      <ResumeOffers items={items} />
    </Paper>
  );
}
