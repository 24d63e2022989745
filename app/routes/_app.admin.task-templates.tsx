import { Badge, Button, Group, Stack, Table, Title } from "@mantine/core";
import { useLoaderData } from "@remix-run/react";
import { TaskTemplateFormModal } from "../components/admin/TaskTemplateFormModal";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";
import { screenLoader } from "../lib/route-data";
import { listTaskTemplates, type TaskTemplate } from "../lib/task-templates-api";
import { DataTable } from "../components/ui/DataTable";
import { useEditDialog } from "../components/ui/use-edit-dialog";

const t = ru.adminExtra.templates;

export const meta = pageMeta(t.title);

export const clientLoader = screenLoader(async ({ request }) => ({ templates: await listTaskTemplates(request.signal) }));

export { RouteError as ErrorBoundary } from "../components/RouteError";

/** /admin/task-templates «Шаблоны задач»: every template with its operation and state; create and edit in a form. */
export default function TaskTemplatesPage() {
  const { templates } = useLoaderData<typeof clientLoader>();
  const form = useEditDialog<TaskTemplate>();
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>{t.title}</Title>
        <Button onClick={form.create}>{t.create}</Button>
      </Group>
      <DataTable
        minWidth={560}
        striped
        aria-label={t.title}
        head={[t.columns.name, t.columns.operation, t.columns.state, t.columns.actions]}
        rows={templates}
        empty={t.empty}
      >
        {(tpl) => (
          <Table.Tr key={tpl.id} data-testid="template-row">
            <Table.Td>{tpl.name}</Table.Td>
            <Table.Td>{t.operations[tpl.operation_class] ?? tpl.operation_class}</Table.Td>
            <Table.Td>
              <Badge variant="light" color={tpl.disabled ? "gray" : "teal"}>
                {tpl.disabled ? t.disabled : t.enabled}
              </Badge>
            </Table.Td>
            <Table.Td>
              <Button size="xs" variant="subtle" onClick={() => form.edit(tpl)}>
                {t.edit}
              </Button>
            </Table.Td>
          </Table.Tr>
        )}
      </DataTable>
      {form.open && <TaskTemplateFormModal key={form.open.key} template={form.open.row} onClose={form.close} onSaved={form.saved} />}
    </Stack>
  );
}
