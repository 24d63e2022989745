import { Button, Group, Table } from "@mantine/core";
import type { z } from "zod";
import { ru } from "../../i18n/ru";
import { NameForm } from "./NameForm";

/** A table row of one name (a tag, a list record) that turns into its own edit form in place; delete beside it. */
export function NameRow<K extends string>({
  text,
  field,
  schema,
  editing,
  editLabel,
  onEdit,
  onCancel,
  onSave,
  onDelete,
}: {
  text: string;
  field: K;
  schema: z.ZodType<Record<K, unknown>>;
  editing: boolean;
  editLabel: string;
  onEdit: () => void;
  onCancel: () => void;
  onSave: (value: string) => Promise<void>;
  onDelete: () => void;
}) {
  return (
    <Table.Tr>
      <Table.Td>
        {editing ? (
          <NameForm field={field} schema={schema} initial={text} submitLabel={ru.metadata.save} onSubmit={onSave} onCancel={onCancel} />
        ) : (
          text
        )}
      </Table.Td>
      <Table.Td w={220}>
        <Group gap="xs" justify="flex-end">
          <Button size="xs" variant="default" onClick={onEdit}>
            {editLabel}
          </Button>
          <Button size="xs" variant="subtle" color="red" onClick={onDelete}>
            {ru.metadata.delete}
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
