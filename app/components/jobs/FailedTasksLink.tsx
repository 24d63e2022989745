import { Anchor, Badge, Group, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import { ru } from "../../i18n/ru";
import { formatCount } from "../../lib/format";
import { countTasks } from "./jobs-api";

/** The failed tasks: those that ended in error, hand-overs out of retries among them (the dead letters, decision 011). */
export const failedFilter = { status: ["error"], template: null, owner: null, entity: "" };
export const failedTasksHref = "/jobs?status=error";

export const countFailedTasks = async (signal?: AbortSignal) => (await countTasks(failedFilter, signal)).count;

/** The dead-letter count with a link to the failed tasks list; quiet when there are none. */
export function FailedTasksLink({ count }: { count: number }) {
  if (count === 0)
    return (
      <Text size="sm" c="dimmed" data-testid="failed-tasks">
        {ru.jobs.noFailed}
      </Text>
    );
  return (
    <Group gap={6} data-testid="failed-tasks">
      <Badge color="red" variant="light">
        {count}
      </Badge>
      <Anchor component={Link} to={failedTasksHref} size="sm">
        {formatCount(count, ru.jobs.failed)}
      </Anchor>
    </Group>
  );
}
