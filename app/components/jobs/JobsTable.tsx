import { Anchor, Stack, Table, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import { ru } from "../../i18n/ru";
import { formatDateTime } from "../../lib/format";
import type { Task } from "./jobs-api";
import { TaskActions, TaskPriority } from "./TaskActions";
import { TaskProgress, TaskStatusBadge } from "./TaskStatusBadge";

/** One row per task: status, progress, entity, template, owner, times, priority, the commands its status allows. */
export function JobsTable({ tasks, onChanged }: { tasks: Task[]; onChanged: () => void }) {
  const c = ru.jobs.columns;
  return (
    <Table.ScrollContainer minWidth={1000}>
      <Table striped highlightOnHover verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            {[c.num, c.status, c.progress, c.entity, c.template, c.owner, c.times, c.priority, c.actions].map((h) => (
              <Table.Th key={h}>{h}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tasks.map((t) => (
            <Table.Tr key={t.job_id} data-testid="task-row" data-job={t.job_id}>
              <Table.Td>
                <Anchor component={Link} to={`/jobs/${t.job_id}`}>
                  {t.job_num}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <TaskStatusBadge status={t.status} />
              </Table.Td>
              <Table.Td>
                <TaskProgress task={t} />
              </Table.Td>
              <Table.Td>
                <Anchor component={Link} to={`/asset/${t.asset_id}`} size="sm">
                  {t.asset_name ?? t.asset_id}
                </Anchor>
                <Text size="xs" c="dimmed">
                  v{t.version}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{t.template}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{t.owner_name ?? "—"}</Text>
              </Table.Td>
              <Table.Td>
                <Stack gap={0}>
                  <Text size="xs">
                    {ru.jobs.scheduled}: {formatDateTime(t.schedule_time)}
                  </Text>
                  {t.start_time && (
                    <Text size="xs">
                      {ru.jobs.started}: {formatDateTime(t.start_time)}
                    </Text>
                  )}
                  {t.stop_time && (
                    <Text size="xs">
                      {ru.jobs.stopped}: {formatDateTime(t.stop_time)}
                    </Text>
                  )}
                </Stack>
              </Table.Td>
              <Table.Td>
                <TaskPriority task={t} onChanged={onChanged} />
              </Table.Td>
              <Table.Td>
                <TaskActions task={t} onChanged={onChanged} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
