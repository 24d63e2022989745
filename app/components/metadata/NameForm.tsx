import { Button, Group, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useState } from "react";
import type { z } from "zod";
import { ru } from "../../i18n/ru";

/**
 * One text field checked by the server's own schema for that call (a tag's name, a class's name, a taxon
 * path, a list record): create when `initial` is empty, rename otherwise. `onSubmit` answers whether the
 * change went through, so the field is cleared (create) or closed (rename) only then.
 */
export function NameForm<K extends string>({
  field,
  schema,
  label,
  placeholder,
  initial = "",
  submitLabel,
  onSubmit,
  onCancel,
  width = 280,
}: {
  field: K;
  schema: z.ZodType<Record<K, unknown>>;
  label?: string;
  placeholder?: string;
  initial?: string;
  submitLabel: string;
  onSubmit: (value: string) => Promise<boolean>;
  onCancel?: () => void;
  width?: number;
}) {
  const form = useForm<Record<string, string>>({ initialValues: { [field]: initial }, validate: zod4Resolver(schema) });
  const [busy, setBusy] = useState(false);
  const submit = async (values: Record<string, string>) => {
    setBusy(true);
    const done = await onSubmit(values[field].trim());
    setBusy(false);
    if (done && !onCancel) form.reset();
  };
  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Group align={label ? "end" : "start"} gap="xs" wrap="nowrap">
        <TextInput
          label={label}
          aria-label={label ? undefined : (placeholder ?? submitLabel)}
          placeholder={placeholder}
          w={width}
          size={onCancel ? "xs" : "sm"}
          data-autofocus={onCancel ? true : undefined}
          {...form.getInputProps(field)}
        />
        <Button type="submit" loading={busy} size={onCancel ? "xs" : "sm"}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button variant="default" size="xs" onClick={onCancel}>
            {ru.metadata.cancel}
          </Button>
        )}
      </Group>
    </form>
  );
}
