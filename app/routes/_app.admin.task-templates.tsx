import { Badge, Button, Group, Stack, Table, Title } from "@mantine/core";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { useState } from "react";
import { TaskTemplateFormModal } from "../components/admin/TaskTemplateFormModal";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";
import { screenLoader } from "../lib/route-data";
import { listTaskTemplates, type TaskTemplate } from "../lib/task-templates-api";
import { DataTable } from "../components/ui/DataTable";

const t = ru.adminExtra.templates;

export const meta = pageMeta(t.title);

export const clientLoader = screenLoader(async ({ request }) => ({ templates: await listTaskTemplates(request.signal) }));

export { RouteError as ErrorBoundary } from "../components/RouteError";

/** /admin/task-templates «Шаблоны задач»: every template with its operation and state; create and edit in a form. */
export default function TaskTemplatesPage() {
  const { templates } = useLoaderData<typeof clientLoader>();
  const { revalidate } = useRevalidator();
  // The key makes a fresh form (its initial values) every time it opens.
  const [form, setForm] = useState<{ key: number; template?: TaskTemplate } | null>(null);
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>{t.title}</Title>
        <Button onClick={() => setForm({ key: Date.now() })}>{t.create}</Button>
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
              <Button size="xs" variant="subtle" onClick={() => setForm({ key: Date.now(), template: tpl })}>
                {t.edit}
              </Button>
            </Table.Td>
          </Table.Tr>
        )}
      </DataTable>
      {form && <TaskTemplateFormModal key={form.key} template={form.template} onClose={() => setForm(null)} onSaved={revalidate} />}
    </Stack>
  );
}
