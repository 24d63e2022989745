import { Table, type TableProps, Text } from "@mantine/core";
import type { ReactNode } from "react";

/** A column's header: its text, and a width where the column must not take what its cells ask for. */
export type ColumnHead = string | { label: string; w: number };

type Props<T> = Omit<TableProps, "children"> & {
  /** Without it the table has no header row (a short list under a title says what it is). */
  head?: ColumnHead[];
  rows: T[];
  /** One row: a `<Table.Tr key=…>` with its cells. */
  children: (row: T) => ReactNode;
  /** Wide tables scroll sideways on a phone rather than squeeze their columns. */
  minWidth?: number;
  /** With no rows, this line stands in place of the table (an empty table, header only, says nothing). */
  empty?: string;
};

/**
 * The table every list screen draws: a header row and one row per item. The screens differ only in their cells,
 * so they give those and nothing else.
 */
export function DataTable<T>({ head, rows, children, minWidth, empty, ...tableProps }: Props<T>) {
  if (empty !== undefined && rows.length === 0) return <Text c="dimmed">{empty}</Text>;
  const table = (
    <Table {...tableProps}>
      {head && (
        <Table.Thead>
          <Table.Tr>
            {head.map((h, i) => {
              const { label, w } = typeof h === "string" ? { label: h, w: undefined } : h;
              return (
                // Headers may repeat ("" over a column of buttons), so their place is their key.
                // biome-ignore lint/suspicious/noArrayIndexKey: the header row never reorders.
                <Table.Th key={i} w={w}>
                  {label}
                </Table.Th>
              );
            })}
          </Table.Tr>
        </Table.Thead>
      )}
      <Table.Tbody>{rows.map(children)}</Table.Tbody>
    </Table>
  );
  return minWidth ? <Table.ScrollContainer minWidth={minWidth}>{table}</Table.ScrollContainer> : table;
}
