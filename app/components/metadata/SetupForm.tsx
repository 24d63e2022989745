import { Checkbox, Group, NumberInput, SegmentedControl, Select, Stack, Text, TextInput } from "@mantine/core";
import { ru } from "../../i18n/ru";
import type { FieldSetups, FieldType, ListInfo, FieldTemplate } from "../../lib/metadata-api";
import { OrderedTemplates } from "./OrderedTemplates";

const t = ru.metadata.editor;

/** The part of the editor's form the setup is bound to: `field(key)` gives an input's props for field_setup.key. */
export interface SetupBinding {
  setup: Record<string, unknown>;
  set: (key: string, value: unknown) => void;
  error: (key: string) => string | undefined;
}

/** The setup form of one field type (spec: text, number, date, time, asset/group/user, region, struct, bool). */
export function SetupForm({
  type,
  binding,
  lists,
  templates,
  selfId,
  onListChange,
}: {
  type: FieldType;
  binding: SetupBinding;
  lists: readonly ListInfo[];
  templates: readonly FieldTemplate[];
  selfId: string;
  onListChange: (listId: string | null) => void;
}) {
  const { setup, set, error } = binding;
  const flag = (key: string, label: string) => (
    <Checkbox label={label} checked={setup[key] === true} onChange={(e) => set(key, e.currentTarget.checked)} error={error(key)} />
  );
  const num = (key: string, label: string, props: { allowDecimal?: boolean; min?: number } = {}) => (
    <NumberInput
      label={label}
      w={160}
      value={typeof setup[key] === "number" ? (setup[key] as number) : ""}
      onChange={(v) => set(key, typeof v === "number" ? v : null)}
      decimalSeparator=","
      error={error(key)}
      {...props}
    />
  );
  switch (type) {
    case "text":
      return (
        <Stack gap="sm">
          {flag("multiline", t.multiline)}
          {flag("multiple", t.multiple)}
          {num("max_length", t.maxLength, { allowDecimal: false, min: 1 })}
          <Select
            label={t.list}
            w={280}
            placeholder={t.listNone}
            clearable
            data={lists.map((l) => ({ value: l.list_id, label: l.list_name }))}
            value={(setup.list_id as string | null | undefined) ?? null}
            onChange={(id) => {
              set("list_id", id);
              onListChange(id);
            }}
            error={error("list_id")}
          />
        </Stack>
      );
    case "number":
      return (
        <Group align="start">
          {num("min", t.min)}
          {num("max", t.max)}
          {num("step", t.step)}
          <TextInput
            label={t.unit}
            w={160}
            value={(setup.unit as string | null) ?? ""}
            onChange={(e) => set("unit", e.currentTarget.value || null)}
            error={error("unit")}
          />
        </Group>
      );
    case "date":
      return flag("with_time", t.withTime);
    case "time":
      return (
        <Stack gap={4}>
          <Text size="sm">{t.timeMode}</Text>
          <SegmentedControl
            w={320}
            value={(setup.kind as FieldSetups["time"]["kind"]) ?? "duration"}
            onChange={(kind) => set("kind", kind)}
            data={[
              { value: "duration", label: t.duration },
              { value: "time_of_day", label: t.timeOfDay },
            ]}
          />
        </Stack>
      );
    case "asset":
    case "group":
    case "user":
      return flag("multiple", t.multiple);
    case "struct":
      return (
        <Stack gap={4}>
          <Text size="sm">{t.subFields}</Text>
          <OrderedTemplates
            ids={(setup.fields as string[] | undefined) ?? []}
            templates={templates}
            onChange={(ids) => set("fields", ids)}
            addLabel={t.addSubField}
            emptyText={t.noSubFields}
            exclude={selfId}
          />
          {error("fields") && (
            <Text size="sm" c="red">
              {error("fields")}
            </Text>
          )}
        </Stack>
      );
    default:
      return <Text c="dimmed">{t.noSetup}</Text>;
  }
}
