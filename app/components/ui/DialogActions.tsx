import { Button, Group } from "@mantine/core";

type Props = {
  cancelLabel: string;
  onCancel: () => void;
  label: string;
  /** Without it the action is the form's submit button, so Enter in a field does the same as the click. */
  onAction?: () => void;
  busy?: boolean;
  disabled?: boolean;
  /** "red" where the action cannot be undone (delete, unlink). */
  color?: string;
};

/** A dialog's last line: the way out, then the one thing the dialog is for, on the right as in every dialog. */
export function DialogActions({ cancelLabel, onCancel, label, onAction, busy, disabled, color }: Props) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        {cancelLabel}
      </Button>
      <Button type={onAction ? "button" : "submit"} onClick={onAction} loading={busy} disabled={disabled} color={color}>
        {label}
      </Button>
    </Group>
  );
}
