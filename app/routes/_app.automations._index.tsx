import { Anchor, Button, Group, Stack, Switch, Table, Text, Title } from "@mantine/core";
import { Link, useLoaderData, useNavigate, useRevalidator } from "@remix-run/react";
import { useState } from "react";
import { StatusBadge } from "../components/automations/RunHistory";
import { triggerText } from "../components/automations/trigger-text";
import { ru } from "../i18n/ru";
import { createWorkflow, listWorkflows, setEnabled } from "../lib/automations-api";
import { formatCount, formatDateTime } from "../lib/format";
import { pageMeta } from "../lib/meta";
import { showError } from "../lib/notify";
import { screenLoader } from "../lib/route-data";

export const meta = pageMeta(ru.pages.automations);

export const clientLoader = screenLoader(async ({ request }) => listWorkflows(request.signal));

export { RouteError as ErrorBoundary } from "../components/RouteError";

const t = ru.automations;

/** /automations: the caller's workflows with their trigger in words, the switch, the last run and the count. */
export default function AutomationsPage() {
  const { items } = useLoaderData<typeof clientLoader>();
  const { revalidate } = useRevalidator();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  const create = async () => {
    setBusy(true);
    try {
      const { workflow_id } = await createWorkflow(t.newName);
      navigate(`/automations/${workflow_id}`);
    } catch (err) {
      showError(err);
    } finally {
      setBusy(false);
    }
  };
  const toggle = async (id: string, enabled: boolean) => {
    try {
      await setEnabled(id, enabled);
    } catch (err) {
      showError(err);
    }
    revalidate();
  };

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>{ru.pages.automations}</Title>
        <Button onClick={create} loading={busy}>
          {t.create}
        </Button>
      </Group>
      {items.length === 0 ? (
        <Text c="dimmed">{t.empty}</Text>
      ) : (
        <Table striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t.columns.name}</Table.Th>
              <Table.Th>{t.columns.trigger}</Table.Th>
              <Table.Th>{t.columns.enabled}</Table.Th>
              <Table.Th>{t.columns.lastRun}</Table.Th>
              <Table.Th>{t.columns.runs}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((w) => (
              <Table.Tr key={w.workflow_id} data-testid="workflow-row">
                <Table.Td>
                  <Anchor component={Link} to={`/automations/${w.workflow_id}`}>
                    {w.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{triggerText(w.trigger)}</Table.Td>
                <Table.Td>
                  <Switch
                    checked={w.enabled}
                    aria-label={`${t.enabled}: ${w.name}`}
                    onChange={(e) => toggle(w.workflow_id, e.currentTarget.checked)}
                  />
                </Table.Td>
                <Table.Td>
                  {w.last_run ? (
                    <Group gap="xs">
                      <StatusBadge status={w.last_run.status} />
                      <Text size="sm">{formatDateTime(w.last_run.time)}</Text>
                    </Group>
                  ) : (
                    <Text size="sm" c="dimmed">
                      {t.never}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{formatCount(w.runs_count, t.runsCount)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
