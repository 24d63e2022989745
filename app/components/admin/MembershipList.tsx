import { Stack, Table, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { ru } from "../../i18n/ru";
import { DataTable } from "../ui/DataTable";
import { DangerButton } from "../ui/RowActions";
import { AddPicker } from "./AddPicker";
import type { PickOption } from "./pickers";

type Props<T> = {
  title: string;
  addLabel: string;
  search: (q: string, s: AbortSignal) => Promise<PickOption[]>;
  onAdd: (picked: string) => Promise<boolean>;
  onRemove: (row: T) => void;
  pickerTestId: string;
  emptyText: string;
  rows: T[];
  rowKey: (row: T) => string;
  rowTestId: string;
  /** The row's own cells, before its «Убрать». */
  children: (row: T) => ReactNode;
  /** Under the rows (the group's members come a page at a time). */
  footer?: ReactNode;
};

/** One side of a team: a title, a picker that adds, and the rows with their «Убрать». */
export function MembershipList<T>({
  title,
  addLabel,
  search,
  onAdd,
  onRemove,
  pickerTestId,
  emptyText,
  rows,
  rowKey,
  rowTestId,
  children,
  footer,
}: Props<T>) {
  return (
    <Stack gap="md">
      <Title order={4}>{title}</Title>
      <AddPicker label={addLabel} search={search} onAdd={(o) => onAdd(o.value)} testId={pickerTestId} />
      <DataTable striped verticalSpacing="xs" rows={rows} empty={emptyText}>
        {(row) => (
          <Table.Tr key={rowKey(row)} data-testid={rowTestId}>
            {children(row)}
            <Table.Td w={120}>
              <DangerButton onClick={() => onRemove(row)}>{ru.admin.remove}</DangerButton>
            </Table.Td>
          </Table.Tr>
        )}
      </DataTable>
      {footer}
    </Stack>
  );
}
