import { ActionIcon, CopyButton, Group, Text } from "@mantine/core";
import { ru } from "../i18n/ru";
import { IconCheck, IconCopy } from "./icons";

/** Spec 9: copied state lasts 1500 ms. */
export const COPIED_TIMEOUT_MS = 1500;

/** Toast body: the text plus a button that copies it (error texts carry request ids worth pasting). */
export function ToastMessage({ text }: { text: string }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start" justify="space-between">
      <Text size="sm" style={{ wordBreak: "break-word" }}>
        {text}
      </Text>
      <CopyButton value={text} timeout={COPIED_TIMEOUT_MS}>
        {({ copied, copy }) => (
          // A native title instead of a Mantine Tooltip keeps floating-ui out of every page's bundle.
          <ActionIcon
            variant="subtle"
            color={copied ? "teal" : "gray"}
            size="sm"
            onClick={copy}
            title={copied ? ru.toast.copied : ru.toast.copy}
            aria-label={copied ? ru.toast.copied : ru.toast.copy}
          >
            {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
          </ActionIcon>
        )}
      </CopyButton>
    </Group>
  );
}
