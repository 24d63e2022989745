import { Button, Group, type ComboboxItem, Stack } from "@mantine/core";
import { ru } from "../../i18n/ru";
import { ConditionRow, type ConditionValue } from "./ConditionRow";

const t = ru.automations;

/** The automation's conditions: every one must hold for a run to start; add, edit and remove rows. */
export function ConditionsEditor({
  value,
  onChange,
  tags,
  errorOf,
}: {
  value: ConditionValue[];
  onChange: (conditions: ConditionValue[]) => void;
  tags: ComboboxItem[];
  /** The server's first complaint about the i-th condition. */
  errorOf: (i: number) => string | undefined;
}) {
  return (
    <Stack gap="xs">
      {value.map((c, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: controlled rows with no id of their own; the position is their identity
        <Group key={`${i}-${c.on}`} align="end" gap="xs">
          <ConditionRow value={c} onChange={(next) => onChange(value.map((x, n) => (n === i ? next : x)))} tags={tags} error={errorOf(i)} />
          <Button variant="subtle" color="red" size="xs" onClick={() => onChange(value.filter((_, n) => n !== i))}>
            {t.remove}
          </Button>
        </Group>
      ))}
      <Button variant="subtle" size="xs" w="fit-content" onClick={() => onChange([...value, { on: "mime", op: "prefix", value: "" }])}>
        {t.conditionAdd}
      </Button>
    </Stack>
  );
}
