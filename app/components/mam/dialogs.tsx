import { Button, Group, Modal, Stack, Text, TextInput } from "@mantine/core";
import { useEffect, useState, type FormEvent } from "react";
import { ru } from "../../i18n/ru";

/** A yes/no question before anything destructive (delete). */
export function ConfirmModal(props: {
  opened: boolean;
  text: string;
  confirmLabel: string;
  onConfirm: () => Promise<void> | void;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await props.onConfirm();
      props.onClose();
    } catch {
      // The action already showed its toast; the dialog stays for another try.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={ru.mam.confirmDeleteTitle} centered>
      <Stack>
        <Text>{props.text}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {ru.mam.cancel}
          </Button>
          <Button color="red" loading={busy} onClick={confirm}>
            {props.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Asks for a group name (create, rename). */
export function NameModal(props: {
  opened: boolean;
  title: string;
  initial: string;
  onSubmit: (name: string) => Promise<void>;
  onClose: () => void;
}) {
  const [name, setName] = useState(props.initial);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (props.opened) setName(props.initial);
  }, [props.opened, props.initial]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    setBusy(true);
    try {
      await props.onSubmit(name.trim());
      props.onClose();
    } catch {
      // Toast shown by the action; keep the dialog open with what was typed.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title} centered>
      <form onSubmit={submit}>
        <Stack>
          <TextInput label={ru.mam.groupName} value={name} onChange={(e) => setName(e.currentTarget.value)} data-autofocus required />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              {ru.mam.cancel}
            </Button>
            <Button type="submit" loading={busy}>
              {ru.mam.save}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
