import { Checkbox, Modal, NumberInput, Stack, TextInput } from "@mantine/core";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { execute, type TriggerForm } from "../../lib/automations-api";
import { showError, showInfo } from "../../lib/notify";
import { DialogActions } from "../ui/DialogActions";

const t = ru.automations;

/**
 * "Запустить": the trigger form (GET /api/udwf/trigger-form, loaded by the button that opens this) and the entities to
 * run on, then POST execute.
 */
export function RunDialog(props: { workflowId: string; form: TriggerForm; onClose: () => void; onStarted: () => void }) {
  const { form } = props;
  const [values, setValues] = useState<Record<string, string | number | boolean>>(() =>
    Object.fromEntries(form.fields.filter((x) => x.default !== null).map((x) => [x.name, x.default as string | number | boolean])),
  );
  const [entities, setEntities] = useState("");
  const [busy, setBusy] = useState(false);
  const start = async () => {
    setBusy(true);
    try {
      const ids = entities
        .split(/[\s,]+/)
        .map((s) => s.trim())
        .filter(Boolean);
      await execute(props.workflowId, { entities: ids.map((id) => ({ id, type: "asset" as const })), form: values });
      showInfo(t.runStarted);
      props.onStarted();
      props.onClose();
    } catch (err) {
      showError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={props.onClose} title={t.runDialog}>
      <Stack gap="sm">
        {form.entities && (
          <TextInput
            label={t.runEntities}
            placeholder={t.idPlaceholder}
            value={entities}
            onChange={(e) => setEntities(e.currentTarget.value)}
          />
        )}
        {form.fields.map((f) =>
          f.type === "boolean" ? (
            <Checkbox
              key={f.name}
              label={f.label}
              checked={Boolean(values[f.name])}
              onChange={(e) => setValues({ ...values, [f.name]: e.currentTarget.checked })}
            />
          ) : f.type === "number" ? (
            <NumberInput
              key={f.name}
              label={f.label}
              required={f.required}
              value={(values[f.name] as number) ?? ""}
              onChange={(v) => setValues({ ...values, [f.name]: Number(v) })}
            />
          ) : (
            <TextInput
              key={f.name}
              label={f.label}
              required={f.required}
              value={String(values[f.name] ?? "")}
              onChange={(e) => setValues({ ...values, [f.name]: e.currentTarget.value })}
            />
          ),
        )}
        <DialogActions cancelLabel={t.cancel} onCancel={props.onClose} label={t.start} onAction={start} busy={busy} />
      </Stack>
    </Modal>
  );
}
