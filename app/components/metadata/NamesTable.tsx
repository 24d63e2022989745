import { Table } from "@mantine/core";
import { useState } from "react";
import type { z } from "zod";
import { NameRow } from "./NameRow";

type Props<T, K extends string> = {
  rows: T[];
  "aria-label": string;
  idOf: (row: T) => string;
  nameOf: (row: T) => string;
  field: K;
  schema: z.ZodType<Record<K, unknown>>;
  editLabel: string;
  /** Resolves when saved (the row closes its form); rejects with the refusal, which the form shows. */
  onSave: (row: T, name: string) => Promise<void>;
  onDelete: (row: T) => void;
};

/** A table of names (tags, a list's records), one of them edited in place at a time. */
export function NamesTable<T, K extends string>({ rows, idOf, nameOf, field, schema, editLabel, onSave, onDelete, ...rest }: Props<T, K>) {
  const [editing, setEditing] = useState<string | null>(null);
  const save = async (row: T, name: string) => {
    await onSave(row, name);
    setEditing(null);
  };
  return (
    <Table striped aria-label={rest["aria-label"]}>
      <Table.Tbody>
        {rows.map((row) => (
          <NameRow
            key={idOf(row)}
            text={nameOf(row)}
            field={field}
            schema={schema}
            editing={editing === idOf(row)}
            editLabel={editLabel}
            onEdit={() => setEditing(idOf(row))}
            onCancel={() => setEditing(null)}
            onSave={(name) => save(row, name)}
            onDelete={() => onDelete(row)}
          />
        ))}
      </Table.Tbody>
    </Table>
  );
}
