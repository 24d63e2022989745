import { ActionIcon, Button, Group, Select, Stack, Text } from "@mantine/core";
import { ru } from "../../i18n/ru";
import type { FieldTemplate } from "../../lib/metadata-api";

/** Swaps the item at `index` with its neighbour `by` places away (−1 up, +1 down). */
export function moved<T>(items: readonly T[], index: number, by: -1 | 1): T[] {
  const next = [...items];
  const other = index + by;
  if (other < 0 || other >= next.length) return next;
  [next[index], next[other]] = [next[other], next[index]];
  return next;
}

/**
 * An ordered list of field templates by id (an asset class's fields, a struct's sub-fields): add one from
 * those not yet in, remove, move up or down. `exclude` keeps a template out of its own list.
 */
export function OrderedTemplates({
  ids,
  templates,
  onChange,
  addLabel,
  emptyText,
  exclude,
}: {
  ids: readonly string[];
  templates: readonly FieldTemplate[];
  onChange: (ids: string[]) => void;
  addLabel: string;
  emptyText: string;
  exclude?: string;
}) {
  const byId = new Map(templates.map((tpl) => [tpl.field_def_id, tpl]));
  const addable = templates.filter((tpl) => !ids.includes(tpl.field_def_id) && tpl.field_def_id !== exclude);
  return (
    <Stack gap={4}>
      {ids.length === 0 && (
        <Text size="sm" c="dimmed">
          {emptyText}
        </Text>
      )}
      {ids.map((id, index) => {
        const name = byId.get(id)?.field_def_name ?? `${id} (${ru.metadata.classes.unknownField})`;
        return (
          <Group key={id} gap="xs" data-testid="ordered-template">
            <Text size="sm" w={24} c="dimmed">
              {index + 1}.
            </Text>
            <Text size="sm" miw={200}>
              {name}
            </Text>
            <ActionIcon
              variant="subtle"
              aria-label={`${ru.metadata.up}: ${name}`}
              disabled={index === 0}
              onClick={() => onChange(moved(ids, index, -1))}
            >
              ↑
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              aria-label={`${ru.metadata.down}: ${name}`}
              disabled={index === ids.length - 1}
              onClick={() => onChange(moved(ids, index, 1))}
            >
              ↓
            </ActionIcon>
            <Button
              size="compact-xs"
              variant="subtle"
              color="red"
              aria-label={`${ru.metadata.remove}: ${name}`}
              onClick={() => onChange(ids.filter((f) => f !== id))}
            >
              {ru.metadata.remove}
            </Button>
          </Group>
        );
      })}
      <Select
        aria-label={addLabel}
        placeholder={addLabel}
        data={addable.map((tpl) => ({ value: tpl.field_def_id, label: tpl.field_def_name }))}
        value={null}
        onChange={(id) => id && onChange([...ids, id])}
        searchable
        w={280}
        disabled={addable.length === 0}
      />
    </Stack>
  );
}
