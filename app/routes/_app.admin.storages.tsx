import { Badge, Button, Group, Progress, Stack, Table, Text, Title } from "@mantine/core";
import { useLoaderData } from "@remix-run/react";
import { StorageFormModal } from "../components/admin/StorageFormModal";
import { ru } from "../i18n/ru";
import { listStorages, type Storage, storageUsage } from "../lib/admin-api";
import { formatSize } from "../lib/format";
import { pageMeta } from "../lib/meta";
import { screenLoader } from "../lib/route-data";
import { DataTable } from "../components/ui/DataTable";
import { useEditDialog } from "../components/ui/use-edit-dialog";

export const meta = pageMeta(ru.pages.storages);

export const clientLoader = screenLoader(async ({ request }) => {
  const [storages, usage] = await Promise.all([listStorages(request.signal), storageUsage(request.signal)]);
  return { storages, usage };
});

export { RouteError as ErrorBoundary } from "../components/RouteError";

const t = ru.admin.storages;

/** /admin/storages: the R2 and S3-compatible storages, their usage as bars against the fullest one, create and edit. */
export default function StoragesPage() {
  const { storages, usage } = useLoaderData<typeof clientLoader>();
  const form = useEditDialog<Storage>();
  const used = new Map(usage.map((u) => [u.storage_id, u]));
  const fullest = Math.max(1, ...usage.map((u) => u.bytes));
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>{ru.pages.storages}</Title>
        <Button onClick={form.create}>{t.create}</Button>
      </Group>
      <DataTable
        striped
        aria-label={ru.pages.storages}
        head={[
          t.columns.name,
          t.columns.kind,
          t.columns.place,
          t.columns.credentials,
          { label: t.columns.usage, w: 260 },
          t.columns.actions,
        ]}
        rows={storages}
      >
        {(s) => {
          const u = used.get(s.storage_id);
          return (
            <Table.Tr key={s.storage_id}>
              <Table.Td>
                <Group gap="xs">
                  <Text>{s.storage_name}</Text>
                  {s.is_default && <Badge variant="light">{t.defaultBadge}</Badge>}
                </Group>
              </Table.Td>
              <Table.Td>{t.kinds[s.kind]}</Table.Td>
              <Table.Td>{s.kind === "s3" ? `${s.storage_setup.url ?? ""} · ${s.storage_setup.bucket ?? ""}` : "—"}</Table.Td>
              <Table.Td>{s.kind === "s3" ? (s.has_credentials ? t.credentialsSet : t.credentialsNone) : "—"}</Table.Td>
              <Table.Td>
                <Stack gap={2}>
                  <Progress value={((u?.bytes ?? 0) / fullest) * 100} aria-label={`${t.columns.usage}: ${s.storage_name}`} />
                  <Text size="xs" c="dimmed">
                    {t.usage(formatSize(u?.bytes ?? 0), u?.objects ?? 0)}
                    {u?.uploading ? ` · ${t.uploading(u.uploading)}` : ""}
                  </Text>
                </Stack>
              </Table.Td>
              <Table.Td>
                {/* The built-in R2 binding has nothing to edit but its name, which the installation sets. */}
                {!s.is_default && (
                  <Button size="xs" variant="subtle" onClick={() => form.edit(s)}>
                    {t.edit}
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          );
        }}
      </DataTable>
      {form.open && <StorageFormModal key={form.open.key} opened storage={form.open.row} onClose={form.close} onSaved={form.saved} />}
    </Stack>
  );
}
