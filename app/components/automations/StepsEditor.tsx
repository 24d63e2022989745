import { ActionIcon, Card, type ComboboxItem, Group, Select, Stack, Text } from "@mantine/core";
import { ru } from "../../i18n/ru";
import type { Catalogue } from "../../lib/automations-api";
import { ParamsForm, type JsonSchema } from "./ParamsForm";

const t = ru.automations;

export interface StepValue {
  action: string;
  params: Record<string, unknown>;
}

/** The list of steps: each a card with the action's form from the catalogue; reorder, remove, add. */
export function StepsEditor(props: {
  value: StepValue[];
  onChange: (v: StepValue[]) => void;
  catalogue: Catalogue;
  tags: ComboboxItem[];
  errors: Record<string, string>;
}) {
  const { value, onChange, catalogue } = props;
  const schemaOf = (action: string) => (catalogue.actions.find((a) => a.action === action)?.params ?? {}) as JsonSchema;
  const move = (i: number, by: number) => {
    const next = [...value];
    const [s] = next.splice(i, 1);
    next.splice(i + by, 0, s);
    onChange(next);
  };
  const errorsOf = (i: number) =>
    Object.fromEntries(
      Object.entries(props.errors)
        .filter(([k]) => k.startsWith(`${i}.params.`))
        .map(([k, m]) => [k.slice(`${i}.params.`.length).split(".")[0], m]),
    );
  return (
    <Stack gap="sm">
      {value.map((step, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: controlled rows with no id of their own; the position is their identity
        <Card key={`${i}-${step.action}`} withBorder padding="sm" data-testid="step">
          <Group justify="space-between" mb="xs">
            <Text fw={500}>
              {t.step(i + 1)}: {t.actions[step.action] ?? step.action}
            </Text>
            <Group gap={4}>
              <ActionIcon variant="subtle" aria-label={`${t.stepUp} ${i + 1}`} disabled={i === 0} onClick={() => move(i, -1)}>
                ↑
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                aria-label={`${t.stepDown} ${i + 1}`}
                disabled={i === value.length - 1}
                onClick={() => move(i, 1)}
              >
                ↓
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`${t.stepRemove} ${i + 1}`}
                onClick={() => onChange(value.filter((_, n) => n !== i))}
              >
                ×
              </ActionIcon>
            </Group>
          </Group>
          {props.errors[`${i}.action`] && (
            <Text c="red" size="sm">
              {props.errors[`${i}.action`]}
            </Text>
          )}
          <ParamsForm
            schema={schemaOf(step.action)}
            value={step.params}
            onChange={(params) => onChange(value.map((s, n) => (n === i ? { ...s, params } : s)))}
            tags={props.tags}
            errors={errorsOf(i)}
            labelPrefix={t.step(i + 1)}
          />
        </Card>
      ))}
      <Select
        placeholder={t.stepAdd}
        aria-label={t.stepAdd}
        w={300}
        data={catalogue.actions.map((a) => ({ value: a.action, label: t.actions[a.action] ?? a.action }))}
        value={null}
        onChange={(action) => action && onChange([...value, { action, params: {} }])}
      />
    </Stack>
  );
}
