import { ActionIcon, Button, Group, Text, Tooltip } from "@mantine/core";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { showError } from "../../lib/notify";
import { commandsFor, isFinal, sendCommand, setPriority, type Task } from "./jobs-api";

/** The commands valid in the task's status (the same table as task-commands) and its priority. */
export function TaskActions({ task, onChanged }: { task: Task; onChanged: () => void }) {
  const [busy, setBusy] = useState(false);
  const act = async (fn: () => Promise<Task>) => {
    setBusy(true);
    try {
      await fn();
      onChanged();
    } catch (err) {
      showError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Group gap={4} wrap="nowrap">
      {commandsFor(task.status).map((c) => (
        <Button key={c} size="compact-xs" variant="light" disabled={busy} onClick={() => act(() => sendCommand(task.job_id, c))}>
          {ru.jobs.commands[c]}
        </Button>
      ))}
    </Group>
  );
}

export function TaskPriority({ task, onChanged }: { task: Task; onChanged: () => void }) {
  const final = isFinal(task.status);
  const change = (delta: number) =>
    setPriority(task.job_id, Math.max(-100, Math.min(100, task.priority + delta))).then(() => onChanged(), showError);
  return (
    <Group gap={2} wrap="nowrap">
      <Tooltip label={ru.jobs.priorityDown}>
        <ActionIcon size="sm" variant="subtle" disabled={final} onClick={() => change(-1)} aria-label={ru.jobs.priorityDown}>
          −
        </ActionIcon>
      </Tooltip>
      <Text size="sm" w={28} ta="center" data-testid="task-priority">
        {task.priority}
      </Text>
      <Tooltip label={ru.jobs.priorityUp}>
        <ActionIcon size="sm" variant="subtle" disabled={final} onClick={() => change(1)} aria-label={ru.jobs.priorityUp}>
          +
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
