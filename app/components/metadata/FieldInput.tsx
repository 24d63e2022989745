import { Checkbox, Fieldset, Group, MultiSelect, NumberInput, Select, Stack, TagsInput, Textarea, TextInput } from "@mantine/core";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import type { FieldSetups, FieldTemplate } from "../../lib/metadata-api";
import { secondsToText, textToSeconds } from "./time-text";

const t = ru.metadata.input;

/** What a field's input needs besides its own template: struct sub-templates, and the records of the lists text fields pick from. */
export interface FieldLookup {
  templates: readonly FieldTemplate[];
  /** list_id → the records' texts. */
  choices: Readonly<Record<string, readonly string[]>>;
}

export interface FieldInputProps {
  template: Pick<FieldTemplate, "field_def_id" | "field_def_name" | "field_type" | "field_setup">;
  /** The value in the API's field_data shape; undefined or null when there is none yet. */
  value: unknown;
  onChange: (value: unknown) => void;
  lookup?: FieldLookup;
  disabled?: boolean;
  /** How deep inside structs this input is (a struct that contains itself stops here). */
  depth?: number;
}

const NO_LOOKUP: FieldLookup = { templates: [], choices: {} };
const asString = (v: unknown) => (typeof v === "string" ? v : "");
const asStrings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
const asNumber = (v: unknown) => (typeof v === "number" ? v : "");

/**
 * The input for one field value, drawn from its template (type and setup), controlled, with the value in
 * the API's field_data shape: text a string (a list of them when `multiple`), number a number, date an ISO
 * date ("2024-03-05" or "2024-03-05T14:07" with time), time seconds, asset/group/user an id (or ids),
 * region {x, y, w, h} in 0..1 of the frame, struct an object by sub-template id, bool a boolean.
 */
export function FieldInput({ template, value, onChange, lookup = NO_LOOKUP, disabled, depth = 0 }: FieldInputProps) {
  const label = template.field_def_name;
  switch (template.field_type) {
    case "text": {
      const setup = template.field_setup as FieldSetups["text"];
      const choices = setup.list_id ? (lookup.choices[setup.list_id] ?? []) : null;
      if (choices && setup.multiple)
        return (
          <MultiSelect label={label} data={[...choices]} value={asStrings(value)} onChange={onChange} searchable disabled={disabled} />
        );
      if (choices)
        return (
          <Select
            label={label}
            data={[...choices]}
            value={asString(value) || null}
            onChange={onChange}
            searchable
            clearable
            disabled={disabled}
          />
        );
      if (setup.multiple)
        return (
          <TagsInput
            label={label}
            value={asStrings(value)}
            onChange={onChange}
            maxLength={setup.max_length ?? undefined}
            disabled={disabled}
          />
        );
      const common = { label, value: asString(value), maxLength: setup.max_length ?? undefined, disabled };
      return setup.multiline ? (
        <Textarea {...common} autosize minRows={2} onChange={(e) => onChange(e.currentTarget.value)} />
      ) : (
        <TextInput {...common} onChange={(e) => onChange(e.currentTarget.value)} />
      );
    }
    case "number": {
      const setup = template.field_setup as FieldSetups["number"];
      return (
        <NumberInput
          label={label}
          value={asNumber(value)}
          onChange={(v) => onChange(typeof v === "number" ? v : null)}
          min={setup.min ?? undefined}
          max={setup.max ?? undefined}
          step={setup.step ?? undefined}
          rightSection={setup.unit || undefined}
          rightSectionWidth={setup.unit ? Math.max(36, setup.unit.length * 9) : undefined}
          decimalSeparator=","
          disabled={disabled}
        />
      );
    }
    case "date": {
      const withTime = (template.field_setup as FieldSetups["date"]).with_time;
      return (
        <TextInput
          label={label}
          type={withTime ? "datetime-local" : "date"}
          value={asString(value)}
          onChange={(e) => onChange(e.currentTarget.value || null)}
          disabled={disabled}
        />
      );
    }
    case "time":
      return (
        <TimeInput
          label={label}
          value={value}
          onChange={onChange}
          timeOfDay={(template.field_setup as FieldSetups["time"]).kind === "time_of_day"}
          disabled={disabled}
        />
      );
    case "asset":
    case "group":
    case "user": {
      const multiple = (template.field_setup as FieldSetups["asset"]).multiple;
      return multiple ? (
        <TagsInput label={label} placeholder={t.idsHint} value={asStrings(value)} onChange={onChange} disabled={disabled} />
      ) : (
        <TextInput
          label={label}
          placeholder={t.idHint}
          value={asString(value)}
          onChange={(e) => onChange(e.currentTarget.value.trim() || null)}
          disabled={disabled}
        />
      );
    }
    case "region":
      return <RegionInput label={label} value={value} onChange={onChange} disabled={disabled} />;
    case "struct": {
      const ids = (template.field_setup as FieldSetups["struct"]).fields ?? [];
      const parts = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
      const subs =
        depth < 3 ? ids.map((id) => lookup.templates.find((tpl) => tpl.field_def_id === id)).filter((tpl) => tpl !== undefined) : [];
      return (
        <Fieldset legend={label} disabled={disabled}>
          <Stack gap="xs">
            {subs.map((sub) => (
              <FieldInput
                key={sub.field_def_id}
                template={sub}
                value={parts[sub.field_def_id]}
                onChange={(v) => onChange({ ...parts, [sub.field_def_id]: v })}
                lookup={lookup}
                disabled={disabled}
                depth={depth + 1}
              />
            ))}
          </Stack>
        </Fieldset>
      );
    }
    case "bool":
      return <Checkbox label={label} checked={value === true} onChange={(e) => onChange(e.currentTarget.checked)} disabled={disabled} />;
  }
}

/** hh:mm:ss typed as text; the value changes (to seconds) once the text is a time. */
function TimeInput({
  label,
  value,
  onChange,
  timeOfDay,
  disabled,
}: {
  label: string;
  value: unknown;
  onChange: (v: unknown) => void;
  timeOfDay: boolean;
  disabled?: boolean;
}) {
  const seconds = typeof value === "number" ? value : null;
  const [text, setText] = useState(secondsToText(seconds));
  // A value changed from outside (another record, a reset) replaces what was typed.
  const [shown, setShown] = useState(seconds);
  if (shown !== seconds && textToSeconds(text, timeOfDay) !== seconds) {
    setShown(seconds);
    setText(secondsToText(seconds));
  }
  const parsed = textToSeconds(text, timeOfDay);
  return (
    <TextInput
      label={label}
      placeholder={t.timeHint}
      value={text}
      error={text && parsed === null ? t.badTime : undefined}
      onChange={(e) => {
        const next = e.currentTarget.value;
        setText(next);
        const s = next.trim() ? textToSeconds(next, timeOfDay) : null;
        if (s !== null || !next.trim()) {
          setShown(s);
          onChange(s);
        }
      }}
      onBlur={() => parsed !== null && setText(secondsToText(parsed))}
      disabled={disabled}
    />
  );
}

type Region = { x: number; y: number; w: number; h: number };
const REGION_KEYS = ["x", "y", "w", "h"] as const;

function RegionInput({
  label,
  value,
  onChange,
  disabled,
}: {
  label: string;
  value: unknown;
  onChange: (v: unknown) => void;
  disabled?: boolean;
}) {
  const region: Region = { x: 0, y: 0, w: 1, h: 1, ...(typeof value === "object" && value !== null ? (value as Partial<Region>) : {}) };
  return (
    <Fieldset legend={label} disabled={disabled}>
      <Group gap="xs" grow>
        {REGION_KEYS.map((key) => (
          <NumberInput
            key={key}
            label={t.region[key]}
            value={region[key]}
            min={0}
            max={1}
            step={0.01}
            decimalScale={4}
            decimalSeparator=","
            onChange={(v) => onChange({ ...region, [key]: typeof v === "number" ? v : 0 })}
          />
        ))}
      </Group>
    </Fieldset>
  );
}
