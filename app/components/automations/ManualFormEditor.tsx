import { ActionIcon, Button, Checkbox, Group, Select, Stack, Text, TextInput } from "@mantine/core";
import { type FormField, formFieldTypes } from "../../../shared/udwf/schemas";
import { ru } from "../../i18n/ru";

const t = ru.automations;

/** The form a manual trigger asks for at «Запустить»: one row per field (name, label, type, required). */
export function ManualFormEditor({
  form,
  errors,
  onChange,
}: {
  form: FormField[];
  /** The trigger's errors; a field's are under `form.<i>.<key>`. */
  errors: Record<string, string>;
  onChange: (form: FormField[]) => void;
}) {
  const setField = (i: number, patch: Partial<FormField>) => onChange(form.map((f, n) => (n === i ? { ...f, ...patch } : f)));
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {t.form}
      </Text>
      {form.map((f, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: controlled rows with no id of their own; the position is their identity
        <Group key={`${i}-${f.name}`} gap="xs" align="end">
          <TextInput
            label={t.formName}
            value={f.name}
            onChange={(x) => setField(i, { name: x.currentTarget.value })}
            error={errors[`form.${i}.name`]}
          />
          <TextInput
            label={t.formLabel}
            value={f.label}
            onChange={(x) => setField(i, { label: x.currentTarget.value })}
            error={errors[`form.${i}.label`]}
          />
          <Select
            label={t.formType}
            w={120}
            data={[...formFieldTypes]}
            value={f.type}
            onChange={(x) => x && setField(i, { type: x as FormField["type"] })}
          />
          <Checkbox label={t.formRequired} checked={f.required} onChange={(x) => setField(i, { required: x.currentTarget.checked })} />
          <ActionIcon variant="subtle" color="red" aria-label={t.remove} onClick={() => onChange(form.filter((_, n) => n !== i))}>
            ×
          </ActionIcon>
        </Group>
      ))}
      <Button
        variant="subtle"
        size="xs"
        w="fit-content"
        onClick={() => onChange([...form, { name: `field${form.length + 1}`, label: "", type: "string", required: false }])}
      >
        {t.formAdd}
      </Button>
    </Stack>
  );
}
