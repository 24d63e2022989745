import { Button, Group, Modal, Text } from "@mantine/core";
import { ru } from "../i18n/ru";

/** Offers a reload onto the new build. Loaded only when one is found (kept out of the first page load). */
export default function UpdateModal({ onLater }: { onLater: () => void }) {
  return (
    <Modal opened onClose={onLater} title={ru.version.title} centered>
      <Text size="sm">{ru.version.text}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onLater}>
          {ru.version.later}
        </Button>
        <Button onClick={() => window.location.reload()}>{ru.version.reload}</Button>
      </Group>
    </Modal>
  );
}
