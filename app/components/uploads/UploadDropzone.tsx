import { Box, Button, FileButton, Group, Overlay, Stack, Text } from "@mantine/core";
import type React from "react";
import { useEffect, useRef, useState } from "react";
import { ru } from "../../i18n/ru";
import { showError } from "../../lib/notify";
import { uploadQueue } from "../../lib/upload-client";
import { enqueueTree, readDrop } from "../../lib/upload-drop";
import { IconUpload } from "../icons";
import { CreateEmptyAsset } from "../mam/CreateEmptyAsset";
import { refreshTree } from "../mam/move";

export interface UploadDropzoneProps {
  groupId: string;
  canUpload: boolean;
  /** A file finished uploading into this group, or a dropped folder became its subgroup: the list loads again. */
  onChanged: () => void;
  children: React.ReactNode;
}

const hasFiles = (event: React.DragEvent) => Array.from(event.dataTransfer.types).includes("Files");

/**
 * Drop target and file picker for a group's contents (docs/decisions/015-upload-queue.md): files go to the
 * upload queue; dropped folders become subgroups with their files inside. Without the create permission only
 * the children show.
 */
export function UploadDropzone({ groupId, canUpload, onChanged, children }: UploadDropzoneProps) {
  const [over, setOver] = useState(false);
  const onChangedRef = useRef(onChanged);
  onChangedRef.current = onChanged;
  // The group open now: a drop's folders may still be turning into subgroups after the user moved on.
  const openGroup = useRef(groupId);
  openGroup.current = groupId;

  // A subscription to the upload queue (no call of its own): its events reload the list.
  useEffect(() => uploadQueue().onUploaded(groupId, () => onChangedRef.current()), [groupId]);

  if (!canUpload) return <>{children}</>;

  const enqueue = (files: File[], target: string) => void uploadQueue().add(files, target);
  // A folder became a subgroup: its parent's loaded tree node reloads, and so does the list if that parent is open.
  const subgroupCreated = async (parentId: string) => {
    if (parentId === openGroup.current) onChangedRef.current();
    await refreshTree([parentId]);
  };

  const onDrop = (event: React.DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    setOver(false);
    readDrop(event.dataTransfer)
      .then((tree) => enqueueTree(tree, groupId, enqueue, subgroupCreated))
      .catch(showError);
  };

  return (
    <Box
      pos="relative"
      // A flex column that takes the rest of its parent, so a scrolling child (the group's list) keeps its height.
      style={{ flex: 1, minHeight: 0, display: "flex", flexDirection: "column" }}
      aria-label={ru.upload.dropzone}
      data-testid="upload-dropzone"
      onDragOver={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = "copy";
        setOver(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={onDrop}
    >
      {/* The buttons go under the hint where the screen is narrow (a phone), instead of widening the page. */}
      <Group justify="space-between" mb="xs" gap="xs">
        <Text size="sm" c="dimmed">
          {ru.upload.dropHint}
        </Text>
        <Group gap="xs">
          <CreateEmptyAsset groupId={groupId} />
          <FileButton multiple onChange={(files) => files.length && enqueue(files, groupId)}>
            {(props) => (
              <Button size="xs" variant="light" leftSection={<IconUpload />} {...props}>
                {ru.upload.pick}
              </Button>
            )}
          </FileButton>
        </Group>
      </Group>
      {children}
      {over && (
        <Overlay color="#000" backgroundOpacity={0.55} blur={1} radius="md" style={{ border: "2px dashed var(--mantine-color-blue-5)" }}>
          <Stack align="center" justify="center" h="100%">
            <IconUpload size={40} />
            <Text fw={600}>{ru.upload.dropActive}</Text>
          </Stack>
        </Overlay>
      )}
    </Box>
  );
}

export default UploadDropzone;
