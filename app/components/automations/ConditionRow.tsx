import { type ComboboxItem, Group, Select, TextInput } from "@mantine/core";
import { conditionOns, opsFor } from "../../../shared/udwf/schemas";
import { ru } from "../../i18n/ru";

const t = ru.automations;

export interface ConditionValue {
  on: (typeof conditionOns)[number];
  op: string;
  value: string | number | boolean;
  def_id?: string;
}

/** One condition: the subject, an op that suits it, and a value (a tag from the list for "tag"). */
export function ConditionRow(props: {
  value: ConditionValue;
  onChange: (c: ConditionValue) => void;
  tags: ComboboxItem[];
  error?: string;
}) {
  const c = props.value;
  const set = (patch: Partial<ConditionValue>) => props.onChange({ ...c, ...patch });
  return (
    <Group gap="xs" align="end" wrap="nowrap">
      <Select
        label={t.conditionOn[c.on]}
        aria-label={t.conditions}
        w={150}
        data={conditionOns.map((on) => ({ value: on, label: t.conditionOn[on] }))}
        value={c.on}
        onChange={(on) => on && set({ on: on as ConditionValue["on"], op: opsFor[on as ConditionValue["on"]][0] })}
      />
      {c.on === "field" && (
        <TextInput
          label={t.defId}
          placeholder={t.idPlaceholder}
          value={c.def_id ?? ""}
          onChange={(e) => set({ def_id: e.currentTarget.value })}
        />
      )}
      <Select
        w={140}
        label=" "
        data={opsFor[c.on].map((op) => ({ value: op, label: t.ops[op] }))}
        value={c.op}
        onChange={(op) => op && set({ op })}
      />
      {c.on === "tag" ? (
        <Select
          label={t.value}
          data={props.tags}
          searchable
          value={String(c.value || "") || null}
          onChange={(v) => set({ value: v ?? "" })}
          error={props.error}
        />
      ) : (
        <TextInput
          label={t.value}
          error={props.error}
          value={String(c.value)}
          onChange={(e) => set({ value: c.on === "size" ? Number(e.currentTarget.value) || 0 : e.currentTarget.value })}
        />
      )}
    </Group>
  );
}
