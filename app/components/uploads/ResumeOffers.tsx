import { Button, FileButton, Group, Stack, Text } from "@mantine/core";
import { ru } from "../../i18n/ru";
import * as uploads from "../../../shared/uploads/contract";
import { call } from "../../lib/api";
import { formatSize } from "../../lib/format";
import { showError } from "../../lib/notify";
import { uploadQueue } from "../../lib/upload-client";
import { forgetUpload, pendingStore, type PendingUpload } from "../../lib/upload-resume";
import { useStore } from "../../lib/store";
import type { UploadItem } from "../../lib/uploads";

/** Unfinished uploads from before a reload: selecting the same file again continues it (decision 015). */
export function ResumeOffers({ items }: { items: readonly UploadItem[] }) {
  const pending = useStore(pendingStore).filter((p) => !items.some((i) => i.uploadId === p.uploadId));
  if (pending.length === 0) return null;

  const resume = (entry: PendingUpload, file: File | null) => {
    if (!file) return;
    if (file.name !== entry.name || file.size !== entry.size || file.lastModified !== entry.lastModified) {
      showError(ru.upload.wrongFile(entry.name));
      return;
    }
    uploadQueue().add([file], entry.groupId);
  };
  const forget = (entry: PendingUpload) =>
    // Aborting a new asset's only upload removes the asset as well.
    call(uploads.abortUpload, { params: { id: entry.uploadId } })
      .catch(() => undefined)
      .finally(() => forgetUpload(entry.uploadId));

  return (
    <Stack gap={4} mt="sm" aria-label={ru.upload.resumeTitle} role="group">
      <Text size="sm" fw={600}>
        {ru.upload.resumeTitle}
      </Text>
      <Text size="xs" c="dimmed">
        {ru.upload.resumeHint}
      </Text>
      {pending.map((entry) => (
        <Group key={entry.uploadId} justify="space-between" gap="xs" wrap="nowrap" data-testid="upload-pending">
          <Text size="sm" truncate>
            {entry.name} · {formatSize(entry.size)}
          </Text>
          <Group gap={4} wrap="nowrap">
            <FileButton onChange={(file) => resume(entry, file)}>
              {(props) => (
                <Button size="compact-xs" {...props}>
                  {ru.upload.resume}
                </Button>
              )}
            </FileButton>
            <Button size="compact-xs" variant="subtle" onClick={() => void forget(entry)}>
              {ru.upload.forget}
            </Button>
          </Group>
        </Group>
      ))}
    </Stack>
  );
}
