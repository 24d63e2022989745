import { Modal, Select, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useState } from "react";
import { createGroupBody } from "../../../shared/groups/schemas";
import { ru } from "../../i18n/ru";
import { applyServerErrors } from "../../lib/form-errors";
import { DialogActions } from "../ui/DialogActions";

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
        <DialogActions
          cancelLabel={ru.mam.cancel}
          onCancel={props.onClose}
          label={props.confirmLabel}
          color="red"
          busy={busy}
          onAction={confirm}
        />
      </Stack>
    </Modal>
  );
}

/** The group-name field as the server checks it (shared/groups/schemas.ts: createGroupBody, patchGroupBody). */
const nameSchema = createGroupBody.pick({ group_name: true });

/** Asks for a group name (create, rename); `onSubmit` rejects with the server's refusal, shown on the form. */
export function NameModal(props: {
  opened: boolean;
  title: string;
  initial: string;
  onSubmit: (name: string) => Promise<void>;
  onClose: () => void;
}) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title} centered>
      {/* The modal mounts its content when it opens: each opening starts from `initial`. */}
      <NameForm initial={props.initial} onSubmit={props.onSubmit} onClose={props.onClose} />
    </Modal>
  );
}

function NameForm({ initial, onSubmit, onClose }: { initial: string; onSubmit: (name: string) => Promise<void>; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const form = useForm({ initialValues: { group_name: initial }, validate: zod4Resolver(nameSchema) });
  const submit = form.onSubmit(async ({ group_name }) => {
    setBusy(true);
    try {
      await onSubmit(group_name.trim());
      onClose();
    } catch (err) {
      // The dialog stays open with what was typed: the refusal under the name, or in the toast.
      applyServerErrors(form, err);
    } finally {
      setBusy(false);
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput label={ru.mam.groupName} data-autofocus required {...form.getInputProps("group_name")} />
        <DialogActions cancelLabel={ru.mam.cancel} onCancel={onClose} label={ru.mam.save} busy={busy} />
      </Stack>
    </form>
  );
}

/**
 * Where to move something: a group from those the tree has loaded (`targets`), then `onMove` with its id. «Копировать в…»
 * is the same picker with its own words (`labels`).
 */
export function MoveModal(props: {
  opened: boolean;
  targets: { value: string; label: string }[];
  onMove: (target: string) => Promise<void>;
  onClose: () => void;
  labels?: { title: string; target: string; action: string };
}) {
  const labels = props.labels ?? { title: ru.mam.moveTo, target: ru.mam.moveTarget, action: ru.mam.move };
  const [target, setTarget] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const move = async () => {
    if (!target) return;
    setBusy(true);
    try {
      await props.onMove(target);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={labels.title} centered>
      <Stack>
        <Select
          label={labels.target}
          data={props.targets}
          value={target}
          onChange={setTarget}
          searchable
          comboboxProps={{ withinPortal: true }}
        />
        <DialogActions
          cancelLabel={ru.mam.cancel}
          onCancel={props.onClose}
          label={labels.action}
          onAction={move}
          disabled={!target}
          busy={busy}
        />
      </Stack>
    </Modal>
  );
}
