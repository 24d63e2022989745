import { Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { DataTable } from "../ui/DataTable";
import { AddPicker } from "./AddPicker";
import type { PickOption } from "./pickers";

type Props<T> = {
  title: string;
  addLabel: string;
  search: (q: string, s: AbortSignal) => Promise<PickOption[]>;
  onAdd: (picked: string) => Promise<boolean>;
  pickerTestId: string;
  emptyText: string;
  rows: T[];
  children: (row: T) => ReactNode;
  /** Under the rows (the group's members come a page at a time). */
  footer?: ReactNode;
};

/** One side of a team: a title, a picker that adds, and the rows with their «Убрать». */
export function MembershipList<T>({ title, addLabel, search, onAdd, pickerTestId, emptyText, rows, children, footer }: Props<T>) {
  return (
    <Stack gap="md">
      <Title order={4}>{title}</Title>
      <AddPicker label={addLabel} search={search} onAdd={(o) => onAdd(o.value)} testId={pickerTestId} />
      {rows.length === 0 ? (
        <Text c="dimmed">{emptyText}</Text>
      ) : (
        <DataTable striped verticalSpacing="xs" rows={rows}>
          {children}
        </DataTable>
      )}
      {footer}
    </Stack>
  );
}
