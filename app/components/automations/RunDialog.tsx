import { Checkbox, Modal, NumberInput, Stack, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useState } from "react";
import { executeBody } from "../../../shared/udwf/schemas";
import { ru } from "../../i18n/ru";
import { execute, type TriggerForm } from "../../lib/automations-api";
import { applyServerErrors } from "../../lib/form-errors";
import { showInfo } from "../../lib/notify";
import { DialogActions } from "../ui/DialogActions";

const t = ru.automations;

type Values = { entities: string; form: Record<string, string | number | boolean> };

/** The payload of POST execute: the ids typed (comma or space between them) are assets. */
const payloadOf = (v: Values) => ({
  entities: v.entities
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((id) => ({ id, type: "asset" as const })),
  form: v.form,
});
/** A refused entity ("entities.2.id") is the ids' field's. */
const fieldOf = (field: string) => field.replace(/^entities\..*/, "entities");
const rules = zod4Resolver(executeBody);

/**
 * "Запустить": the trigger form (GET /api/udwf/trigger-form, loaded by the button that opens this) and the entities to
 * run on, then POST execute.
 */
export function RunDialog(props: { workflowId: string; form: TriggerForm; onClose: () => void; onStarted: () => void }) {
  const asks = props.form;
  const form = useForm<Values>({
    initialValues: {
      entities: "",
      form: Object.fromEntries(asks.fields.filter((x) => x.default !== null).map((x) => [x.name, x.default as string | number | boolean])),
    },
    validate: (v) => Object.fromEntries(Object.entries(rules(payloadOf(v))).map(([path, message]) => [fieldOf(path), message])),
  });
  const [busy, setBusy] = useState(false);
  const start = async (v: Values) => {
    setBusy(true);
    try {
      await execute(props.workflowId, payloadOf(v));
      showInfo(t.runStarted);
      props.onStarted();
      props.onClose();
    } catch (err) {
      applyServerErrors(form, err, fieldOf);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={props.onClose} title={t.runDialog}>
      <form onSubmit={form.onSubmit(start)} noValidate>
        <Stack gap="sm">
          {asks.entities && <TextInput label={t.runEntities} placeholder={t.idPlaceholder} {...form.getInputProps("entities")} />}
          {asks.fields.map((f) => {
            const path = `form.${f.name}`;
            const value = form.values.form[f.name];
            return f.type === "boolean" ? (
              <Checkbox key={f.name} label={f.label} {...form.getInputProps(path, { type: "checkbox" })} checked={Boolean(value)} />
            ) : f.type === "number" ? (
              <NumberInput
                key={f.name}
                label={f.label}
                required={f.required}
                {...form.getInputProps(path)}
                value={(value as number) ?? ""}
                onChange={(v) => form.setFieldValue(path, Number(v))}
              />
            ) : (
              <TextInput key={f.name} label={f.label} required={f.required} {...form.getInputProps(path)} value={String(value ?? "")} />
            );
          })}
          <DialogActions cancelLabel={t.cancel} onCancel={props.onClose} label={t.start} busy={busy} />
        </Stack>
      </form>
    </Modal>
  );
}
