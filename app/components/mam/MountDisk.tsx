import { Button, Code, Modal, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { HelperMissing, mountGroup } from "../../lib/disk-helper";
import { showError, showInfo } from "../../lib/notify";
import { DialogActions } from "../ui/DialogActions";

/**
 * "Подключить как диск": asks the disk helper on this machine to mount the group. No helper answering opens a
 * dialog on installing and starting it; success and failure are toasts (a failure with the helper's text).
 */
export function useMountDisk() {
  const [missing, setMissing] = useState<{ groupId: string; name: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const mount = async (groupId: string, name: string) => {
    setBusy(true);
    try {
      const path = await mountGroup(groupId, name, ru.disk.helperTokenName);
      setMissing(null);
      showInfo(ru.disk.mounted(name, path));
    } catch (error) {
      if (error instanceof HelperMissing) setMissing({ groupId, name });
      else showError(error instanceof Error && error.message ? error : ru.disk.mountFailed);
    } finally {
      setBusy(false);
    }
  };

  const dialog = (
    <Modal opened={missing !== null} onClose={() => setMissing(null)} title={ru.disk.installTitle} centered>
      <Stack>
        <Text>{ru.disk.installText}</Text>
        <Code block>{ru.disk.installCommand}</Code>
        <Text size="sm" c="dimmed">
          {ru.disk.installNote}
        </Text>
        <DialogActions
          cancelLabel={ru.disk.close}
          onCancel={() => setMissing(null)}
          label={ru.disk.retry}
          busy={busy}
          onAction={() => missing && mount(missing.groupId, missing.name)}
        />
      </Stack>
    </Modal>
  );
  return { mount, busy, dialog };
}

/** The group page's button. */
export function MountDiskButton({ groupId, name }: { groupId: string; name: string }) {
  const { mount, busy, dialog } = useMountDisk();
  return (
    <>
      <Button size="xs" variant="default" loading={busy} onClick={() => mount(groupId, name)}>
        {ru.disk.mount}
      </Button>
      {dialog}
    </>
  );
}
