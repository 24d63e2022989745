import { Badge, Progress, Stack, Text } from "@mantine/core";
import { ru } from "../../i18n/ru";
import type { Task, TaskStatus } from "./jobs-api";

const colors: Record<TaskStatus, string> = {
  none: "gray",
  inqueue: "blue",
  running: "cyan",
  paused: "yellow",
  canceled: "gray",
  done: "green",
  error: "red",
};

export function TaskStatusBadge({ status }: { status: TaskStatus }) {
  return (
    <Badge color={colors[status]} variant="light" data-testid="task-status" data-status={status}>
      {ru.jobs.status[status]}
    </Badge>
  );
}

export function TaskProgress({ task }: { task: Pick<Task, "progress" | "progress_info" | "status"> }) {
  const value = task.status === "done" ? 100 : task.progress;
  return (
    <Stack gap={2} miw={140}>
      <Progress
        value={value}
        color={colors[task.status]}
        animated={task.status === "running"}
        aria-label={`${Math.round(value)}%`}
        data-testid="task-progress"
        data-value={Math.round(value)}
      />
      <Text size="xs" c="dimmed" lineClamp={1}>
        {Math.round(value)}% {task.progress_info}
      </Text>
    </Stack>
  );
}
