import { Button, Group, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useState } from "react";
import type { z } from "zod";
import { ru } from "../../i18n/ru";
import { applyServerErrors } from "../../lib/form-errors";

/**
 * One text field checked by the server's own schema for that call (a tag's name, a class's name, a taxon
 * path, a list record): create when `initial` is empty, rename otherwise. `onSubmit` resolves when the change
 * went through, so the field is cleared (create) or closed by the caller (rename) only then, and rejects with
 * the refusal, which shows under the field when the server names it, else in the toast (applyServerErrors).
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
  onSubmit: (value: string) => Promise<void>;
  onCancel?: () => void;
  width?: number;
}) {
  const form = useForm<Record<string, string>>({ initialValues: { [field]: initial }, validate: zod4Resolver(schema) });
  const [busy, setBusy] = useState(false);
  const submit = async (values: Record<string, string>) => {
    setBusy(true);
    try {
      await onSubmit(values[field].trim());
      if (!onCancel) form.reset();
    } catch (err) {
      applyServerErrors(form, err);
    } finally {
      setBusy(false);
    }
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
