import { Button, Group, Title } from "@mantine/core";
import { useState } from "react";
import type { z } from "zod";
import { ru } from "../../i18n/ru";
import { NameForm } from "./NameForm";

type Props<K extends string> = {
  name: string;
  field: K;
  schema: z.ZodType<Record<K, unknown>>;
  /** Resolves when renamed (the title comes back in place of the form); rejects with the refusal, which the form shows. */
  onRename: (name: string) => Promise<void>;
  onDelete: () => void;
};

/** A card's title (a list, a class) that turns into its rename form in place; rename and delete beside it. */
export function RenamableTitle<K extends string>({ name, field, schema, onRename, onDelete }: Props<K>) {
  const [renaming, setRenaming] = useState(false);
  const rename = async (value: string) => {
    await onRename(value);
    setRenaming(false);
  };
  return (
    <Group justify="space-between">
      {renaming ? (
        <NameForm
          field={field}
          schema={schema}
          initial={name}
          submitLabel={ru.metadata.save}
          onSubmit={rename}
          onCancel={() => setRenaming(false)}
        />
      ) : (
        <Title order={4}>{name}</Title>
      )}
      <Group gap="xs">
        <Button size="xs" variant="default" onClick={() => setRenaming(true)}>
          {ru.metadata.rename}
        </Button>
        <Button size="xs" variant="subtle" color="red" onClick={onDelete}>
          {ru.metadata.delete}
        </Button>
      </Group>
    </Group>
  );
}
