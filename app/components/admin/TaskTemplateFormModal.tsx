import { Checkbox, Modal, Select, Stack, Textarea, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { zod4Resolver } from "mantine-form-zod-resolver";

import { operationClasses, setupSchemas, templateCreateBody, templatePatchBody } from "../../../shared/tasks/schemas";
import { ru } from "../../i18n/ru";

import { createTaskTemplate, type TaskTemplate, updateTaskTemplate } from "../../lib/task-templates-api";
import { DialogActions } from "../ui/DialogActions";
import { useDialogSave } from "../ui/use-dialog-save";

const t = ru.adminExtra.templates;

interface Values {
  name: string;
  operation_class: string;
  disabled: boolean;
  /** The setup as JSON text: each operation has its own fields (shared/tasks/schemas.ts setupSchemas). */
  setup: string;
}

function parseSetup(text: string): Record<string, unknown> | null {
  try {
    const value = text.trim() === "" ? {} : JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

const createRules = zod4Resolver(templateCreateBody as never);
const patchRules = zod4Resolver(templatePatchBody);
/** The setup's own fields ("setup.height") are the one setup field's. */
const fieldOf = (field: string) => field.replace(/^setup\..*/, "setup");

/**
 * Create or edit a task template. The form checks the body it would send with the route's own schemas
 * (the create body is per operation, so the setup's fields are checked as the server checks them), and
 * their errors land on the fields: «setup.height» shows under the setup.
 */
export function TaskTemplateFormModal({
  template,
  onClose,
  onSaved,
}: {
  template?: TaskTemplate;
  onClose: () => void;
  /** After a save: the screen reloads and closes the dialog. */
  onSaved: () => void;
}) {
  const form = useForm<Values>({
    initialValues: {
      name: template?.name ?? "",
      operation_class: template?.operation_class ?? "preview",
      disabled: template?.disabled ?? false,
      setup: JSON.stringify(template?.setup ?? {}, null, 2),
    },
    validate: (v) => {
      const setup = parseSetup(v.setup);
      if (!setup) return { setup: t.badJson };
      const errors = template
        ? patchRules({ name: v.name, disabled: v.disabled, setup })
        : createRules({ name: v.name, disabled: v.disabled, operation_class: v.operation_class, setup });
      // Nested setup errors ("setup.height") show under the one setup field, with the field's name.
      const out: Record<string, string> = {};
      for (const [path, message] of Object.entries(errors)) {
        const key = path.startsWith("setup") ? "setup" : path;
        const text = path.startsWith("setup.") ? `${path.slice(6)}: ${String(message)}` : String(message);
        out[key] = out[key] ? `${out[key]}; ${text}` : text;
      }
      if (template && !out.setup) {
        // An edit's body takes any setup object; the stored template's operation decides its fields.
        const schema = setupSchemas[template.operation_class as keyof typeof setupSchemas];
        const checked = schema?.safeParse(setup);
        if (checked && !checked.success) out.setup = checked.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
      }
      return out;
    },
  });
  const { busy, save } = useDialogSave(form, onSaved, fieldOf);

  const submit = (v: Values) =>
    save(async () => {
      const fields = { name: v.name.trim(), disabled: v.disabled, setup: parseSetup(v.setup) ?? {} };
      if (template) {
        await updateTaskTemplate(template.id, fields);
        return t.saved;
      }
      await createTaskTemplate({ ...fields, operation_class: v.operation_class });
      return t.created;
    });

  return (
    <Modal opened onClose={onClose} title={template ? t.editTitle : t.createTitle} size="lg">
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="sm">
          <TextInput label={t.name} required {...form.getInputProps("name")} />
          <Select
            label={t.operation}
            required
            disabled={!!template}
            allowDeselect={false}
            data={operationClasses.map((c) => ({ value: c, label: t.operations[c] ?? c }))}
            {...form.getInputProps("operation_class")}
          />
          <Textarea
            label={t.setup}
            description={t.setupHint}
            autosize
            minRows={4}
            maxRows={16}
            styles={{ input: { fontFamily: "monospace" } }}
            {...form.getInputProps("setup")}
          />
          <Checkbox label={t.disabledLabel} {...form.getInputProps("disabled", { type: "checkbox" })} />
          <DialogActions cancelLabel={t.cancel} onCancel={onClose} label={t.save} busy={busy} />
        </Stack>
      </form>
    </Modal>
  );
}
