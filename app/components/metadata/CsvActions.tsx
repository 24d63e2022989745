import { Button, FileButton, Group, Modal, ScrollArea, Stack, Table, Text } from "@mantine/core";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { exportCsvPath, importCsv } from "../../lib/metadata-api";
import { showInfo } from "../../lib/notify";
import { downloadFile } from "../mam/download";

const t = ru.metadata.csv;
type Report = Awaited<ReturnType<typeof importCsv>>;

/**
 * A group's field values as CSV (decision 039): export downloads the file; import reads an edited one, shows what
 * would change per row (and each row's errors), and writes the valid changes when applied.
 */
export function CsvActions({ groupId, groupName, onApplied }: { groupId: string; groupName: string; onApplied: () => void }) {
  const [preview, setPreview] = useState<{ csv: string; report: Report } | null>(null);
  const pick = async (file: File | null) => {
    if (!file) return;
    const csv = await file.text();
    const report = await runAction(() => importCsv(groupId, csv, true));
    if (report) setPreview({ csv, report });
  };
  const apply = async () => {
    if (!preview) return;
    const report = await runAction(() => importCsv(groupId, preview.csv, false));
    if (!report) return;
    showInfo(t.applied(report.applied));
    setPreview(null);
    onApplied();
  };
  const rows = preview?.report.rows.filter((r) => r.changes.length || r.errors.length) ?? [];
  return (
    <>
      <Button size="xs" variant="default" onClick={() => runAction(() => downloadFile(exportCsvPath(groupId), `${groupName}.csv`))}>
        {t.export}
      </Button>
      <FileButton onChange={pick} accept=".csv,text/csv">
        {(props) => (
          <Button size="xs" variant="default" {...props}>
            {t.import}
          </Button>
        )}
      </FileButton>
      <Modal opened={preview !== null} onClose={() => setPreview(null)} title={t.previewTitle} size="xl">
        <Stack>
          <Text size="sm">{t.summary(preview?.report.changes ?? 0, rows.filter((r) => r.errors.length).length)}</Text>
          {rows.length === 0 ? (
            <Text c="dimmed">{t.noChanges}</Text>
          ) : (
            <ScrollArea.Autosize mah={420}>
              <Table aria-label={t.previewTitle}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t.columns.row}</Table.Th>
                    <Table.Th>{t.columns.file}</Table.Th>
                    <Table.Th>{t.columns.changes}</Table.Th>
                    <Table.Th>{t.columns.errors}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((r) => (
                    <Table.Tr key={r.row}>
                      <Table.Td>{r.row}</Table.Td>
                      <Table.Td>{r.name}</Table.Td>
                      <Table.Td>
                        {r.changes.map((c) => (
                          <Text key={c.def_id} size="sm">
                            {c.field}: {c.old || "—"} → {c.new}
                          </Text>
                        ))}
                      </Table.Td>
                      <Table.Td>
                        {r.errors.map((e) => (
                          <Text key={e} size="sm" c="red">
                            {e}
                          </Text>
                        ))}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setPreview(null)}>
              {t.cancel}
            </Button>
            <Button onClick={apply} disabled={!preview?.report.changes}>
              {t.apply}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
