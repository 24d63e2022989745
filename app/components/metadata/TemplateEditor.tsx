import { Badge, Button, Code, Grid, Group, NumberInput, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useRevalidator } from "@remix-run/react";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { applyServerErrors } from "../../lib/form-errors";
import { changeTemplate, listRecords, type FieldTemplate, type ListInfo } from "../../lib/metadata-api";
import { showInfo } from "../../lib/notify";
import { DeleteTemplate } from "./DeleteTemplate";
import { FieldInput, type FieldLookup } from "./FieldInput";
import { templateBody } from "./rules";
import { SetupForm } from "./SetupForm";
import { BackLink } from "../ui/BackLink";

const t = ru.metadata.editor;
const tt = ru.metadata.templates;

export interface EditorData {
  template: FieldTemplate;
  templates: FieldTemplate[];
  lists: ListInfo[];
  /** list_id → record texts, for the lists the preview may pick from. */
  choices: Record<string, string[]>;
}

/** A setting cleared in the form (an empty number, no list) is left out: the API takes an absent key as "not set". */
function withSetting(setup: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const { [key]: _, ...rest } = setup;
  return value === null || value === undefined || value === "" ? rest : { ...rest, [key]: value };
}

const valuesOf = (tpl: FieldTemplate) => ({
  field_def_name: tpl.field_def_name,
  field_type: tpl.field_type,
  field_priority: tpl.field_priority as number | string,
  field_def_extsys: tpl.field_def_extsys ?? "",
  field_def_extsys_key: tpl.field_def_extsys_key ?? "",
  field_setup: { ...tpl.field_setup } as Record<string, unknown>,
});

/**
 * A setting's refusal ("field_setup.fields.2") is shown under its input, which the setup form finds by key; the type
 * has no input here (the toast says it).
 */
const setupKey = (field: string) => (field === "field_type" ? null : field.split(".").slice(0, 2).join("."));

/**
 * /admin/metadata/{id}: a template's name, priority, external system and the setup form of its type, with
 * the input it produces shown live next to it (the same FieldInput the asset screens use). A refused save shows
 * under the inputs the server names, anything else in the toast (applyServerErrors).
 */
export function TemplateEditor({ template, templates, lists, choices: loadedChoices }: EditorData) {
  const { revalidate } = useRevalidator();
  const form = useForm({ initialValues: valuesOf(template), validate: zod4Resolver(templateBody) });
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [preview, setPreview] = useState<unknown>(null);
  const [choices, setChoices] = useState(loadedChoices);

  const loadChoices = async (listId: string | null) => {
    if (!listId || choices[listId]) return;
    const records = await runAction(() => listRecords(listId));
    if (records) setChoices((c) => ({ ...c, [listId]: records.map((r) => r.rec_data) }));
  };
  const save = async (values: typeof form.values) => {
    setBusy(true);
    try {
      await changeTemplate(template.field_def_id, { ...values, field_priority: Number(values.field_priority) });
      showInfo(ru.metadata.saved);
      form.resetDirty();
      revalidate();
    } catch (err) {
      applyServerErrors(form, err, setupKey);
    } finally {
      setBusy(false);
    }
  };
  const lookup: FieldLookup = { templates, choices };
  const live = {
    ...template,
    field_def_name: form.values.field_def_name,
    field_setup: form.values.field_setup as FieldTemplate["field_setup"],
  };

  return (
    <Stack gap="md">
      <BackLink to="/admin/metadata" label={t.back} />
      <Group justify="space-between">
        <Group gap="sm">
          <Title order={2}>{template.field_def_name}</Title>
          <Badge variant="light">{ru.metadata.types[template.field_type]}</Badge>
        </Group>
        <Button variant="subtle" color="red" onClick={() => setDeleting(true)}>
          {ru.metadata.delete}
        </Button>
      </Group>
      <Grid gutter="md">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <form onSubmit={form.onSubmit(save)} noValidate>
            <Stack gap="md">
              <Paper withBorder p="md" radius="md" component="section" aria-label={t.general}>
                <Stack gap="sm">
                  <Title order={4}>{t.general}</Title>
                  <TextInput label={tt.name} {...form.getInputProps("field_def_name")} />
                  <NumberInput
                    label={tt.priority}
                    description={tt.priorityHint}
                    allowDecimal={false}
                    w={200}
                    {...form.getInputProps("field_priority")}
                  />
                  <Group grow>
                    <TextInput label={tt.extsys} {...form.getInputProps("field_def_extsys")} />
                    <TextInput label={tt.extsysKey} {...form.getInputProps("field_def_extsys_key")} />
                  </Group>
                </Stack>
              </Paper>
              <Paper withBorder p="md" radius="md" component="section" aria-label={t.setup}>
                <Stack gap="sm">
                  <Title order={4}>{t.setup}</Title>
                  <SetupForm
                    type={template.field_type}
                    binding={{
                      setup: form.values.field_setup,
                      set: (key, value) => form.setFieldValue("field_setup", withSetting(form.values.field_setup, key, value)),
                      error: (key) => form.errors[`field_setup.${key}`] as string | undefined,
                    }}
                    lists={lists}
                    templates={templates}
                    selfId={template.field_def_id}
                    onListChange={loadChoices}
                  />
                  {form.errors.field_setup && (
                    <Text size="sm" c="red">
                      {form.errors.field_setup}
                    </Text>
                  )}
                </Stack>
              </Paper>
              <Group>
                <Button type="submit" loading={busy}>
                  {ru.metadata.save}
                </Button>
                <Button variant="default" disabled={!form.isDirty()} onClick={() => form.reset()}>
                  {ru.metadata.cancel}
                </Button>
              </Group>
            </Stack>
          </form>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Paper withBorder p="md" radius="md" component="section" aria-label={t.preview}>
            <Stack gap="sm">
              <Title order={4}>{t.preview}</Title>
              <FieldInput template={live} value={preview} onChange={setPreview} lookup={lookup} />
              <Text size="xs" c="dimmed">
                {t.previewValue}
              </Text>
              <Code block data-testid="preview-value">
                {JSON.stringify(preview ?? null)}
              </Code>
            </Stack>
          </Paper>
        </Grid.Col>
      </Grid>
      <DeleteTemplate template={deleting ? template : null} onClose={() => setDeleting(false)} after="/admin/metadata" />
    </Stack>
  );
}
