import { Button, Group, Stack, Table, Title } from "@mantine/core";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { useState } from "react";
import { ConfirmModal } from "../components/mam/dialogs";
import { ru } from "../i18n/ru";
import { runAction, runCriticalAction } from "../lib/actions";
import { formatCount, formatDateTime, formatSize } from "../lib/format";
import { pageMeta } from "../lib/meta";
import { showInfo } from "../lib/notify";
import { screenLoader } from "../lib/route-data";
import { type DeletedGroup, listDeleted, purgeGroup, restoreGroup } from "../lib/trash-api";
import { DataTable } from "../components/ui/DataTable";
import { DangerButton, RowActions } from "../components/ui/RowActions";

export const meta = pageMeta(ru.trash.title);

export const clientLoader = screenLoader(async ({ request }) => ({ rows: await listDeleted(0, request.signal) }));

export { RouteError as ErrorBoundary } from "../components/RouteError";

const t = ru.trash;

/** What «Удалить навсегда» takes with it, in words: the figures the list call computed for this group. */
export function purgeText(g: DeletedGroup) {
  const groups = formatCount(g.groups, t.groupsWord);
  if (g.purge_assets === 0) return t.purgeNoAssets(g.group_name, groups);
  return t.purgeText(g.group_name, groups, formatCount(g.purge_assets, t.assetsWord), formatSize(g.purge_bytes));
}

/**
 * /trash «Удалённые» (docs/decisions/056): the groups the user deleted (admins: everyone's), newest first.
 * «Восстановить» acts at once (nothing is lost by it); «Удалить навсегда» asks first, saying what goes.
 */
export default function TrashPage() {
  const { rows } = useLoaderData<typeof clientLoader>();
  const { revalidate } = useRevalidator();
  const [more, setMore] = useState<DeletedGroup[]>([]);
  const [purging, setPurging] = useState<DeletedGroup | null>(null);
  const all = [...rows, ...more.filter((m) => !rows.some((r) => r.group_id === m.group_id))];

  async function restore(g: DeletedGroup) {
    if ((await runAction(() => restoreGroup(g.group_id))) === undefined) return;
    showInfo(t.restored(g.group_name));
    setMore((m) => m.filter((x) => x.group_id !== g.group_id));
    revalidate();
  }
  async function purge(g: DeletedGroup) {
    await runCriticalAction(() => purgeGroup(g.group_id));
    showInfo(t.purged(g.group_name));
    setMore((m) => m.filter((x) => x.group_id !== g.group_id));
    revalidate();
  }
  async function loadMore() {
    const page = await runAction(() => listDeleted(all.length));
    if (page) setMore((m) => [...m, ...page]);
  }

  return (
    <Stack gap="md">
      <Title order={2}>{t.title}</Title>
      <DataTable
        minWidth={640}
        striped
        aria-label={t.title}
        head={[t.columns.name, t.columns.place, t.columns.deletedAt, t.columns.deletedBy, t.columns.size, t.columns.actions]}
        rows={all}
        empty={t.empty}
      >
        {(g) => (
          <Table.Tr key={g.group_id} data-testid="trash-row">
            <Table.Td>{g.group_name}</Table.Td>
            <Table.Td>{g.parent_name ?? t.topLevel}</Table.Td>
            <Table.Td>{formatDateTime(g.deleted_at)}</Table.Td>
            <Table.Td>{g.deleted_by_name ?? t.unknownUser}</Table.Td>
            <Table.Td>
              {formatCount(g.groups, t.groupsWord)}
              {g.purge_assets > 0 ? ` · ${formatCount(g.purge_assets, t.assetsWord)}, ${formatSize(g.purge_bytes)}` : ""}
            </Table.Td>
            <RowActions>
              <Button size="xs" variant="light" onClick={() => restore(g)}>
                {t.restore}
              </Button>
              <DangerButton onClick={() => setPurging(g)}>{t.purge}</DangerButton>
            </RowActions>
          </Table.Tr>
        )}
      </DataTable>
      {all.length > 0 && all.length % 50 === 0 && (
        <Group>
          <Button variant="default" onClick={loadMore}>
            {t.more}
          </Button>
        </Group>
      )}
      <ConfirmModal
        opened={purging !== null}
        text={purging ? purgeText(purging) : ""}
        confirmLabel={t.purge}
        onConfirm={() => (purging ? purge(purging) : undefined)}
        onClose={() => setPurging(null)}
      />
    </Stack>
  );
}
