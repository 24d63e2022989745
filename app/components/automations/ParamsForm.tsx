import { Checkbox, type ComboboxItem, MultiSelect, NumberInput, Select, Stack, Textarea, TextInput } from "@mantine/core";
import { ru } from "../../i18n/ru";
import { ConditionRow, type ConditionValue } from "./ConditionRow";

const t = ru.automations;

export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema & { enum?: string[] };
  enum?: string[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  description?: string;
  default?: unknown;
}

/**
 * A step's parameters, as a form built from the action's JSON schema (GET /api/udwf/actions): strings, numbers,
 * booleans, enum lists and string lists; tag ids pick from the tags; a nested condition (stop-if) is a condition row.
 * `errors` are the server's validation messages by parameter name.
 */
export function ParamsForm(props: {
  schema: JsonSchema;
  value: Record<string, unknown>;
  onChange: (value: Record<string, unknown>) => void;
  tags: ComboboxItem[];
  errors: Record<string, string>;
  labelPrefix: string;
}) {
  const { schema, value, onChange, tags, errors } = props;
  const set = (key: string, v: unknown) => onChange({ ...value, [key]: v });
  return (
    <Stack gap="xs">
      {Object.entries(schema.properties ?? {}).map(([key, prop]) => {
        const label = t.params[key] ?? key;
        const required = schema.required?.includes(key);
        const common = { label, required, error: errors[key], "aria-label": `${props.labelPrefix}: ${label}` };
        if (key === "tag_id")
          return (
            <Select
              key={key}
              {...common}
              data={tags}
              searchable
              value={(value[key] as string) ?? null}
              onChange={(v) => set(key, v ?? undefined)}
            />
          );
        if (key === "condition")
          return (
            <ConditionRow
              key={key}
              value={(value[key] as ConditionValue) ?? { on: "mime", op: "prefix", value: "" }}
              onChange={(c) => set(key, c)}
              tags={tags}
            />
          );
        if (prop.type === "boolean")
          return (
            <Checkbox
              key={key}
              {...common}
              checked={Boolean(value[key] ?? prop.default)}
              onChange={(e) => set(key, e.currentTarget.checked)}
            />
          );
        if (prop.type === "integer" || prop.type === "number")
          return (
            <NumberInput
              key={key}
              {...common}
              min={prop.minimum}
              max={prop.maximum}
              value={(value[key] as number) ?? ""}
              onChange={(v) => set(key, typeof v === "number" ? v : undefined)}
            />
          );
        if (prop.type === "array" && prop.items?.enum)
          return (
            <MultiSelect
              key={key}
              {...common}
              data={prop.items.enum.map((v) => ({ value: v, label: t.acl[v] ?? v }))}
              value={(value[key] as string[]) ?? []}
              onChange={(v) => set(key, v)}
            />
          );
        if (prop.type === "array")
          return (
            <TextInput
              key={key}
              {...common}
              value={((value[key] as string[]) ?? []).join(", ")}
              onChange={(e) =>
                set(
                  key,
                  e.currentTarget.value
                    .split(",")
                    .map((s) => s.trim())
                    .filter(Boolean),
                )
              }
            />
          );
        if ((prop.maxLength ?? 0) > 500)
          return (
            <Textarea
              key={key}
              {...common}
              autosize
              minRows={2}
              value={(value[key] as string) ?? ""}
              onChange={(e) => set(key, e.currentTarget.value)}
            />
          );
        return (
          <TextInput
            key={key}
            {...common}
            value={value[key] === undefined ? "" : String(value[key])}
            onChange={(e) => set(key, e.currentTarget.value === "" ? undefined : e.currentTarget.value)}
          />
        );
      })}
    </Stack>
  );
}
