import { Anchor, Button, Group, MultiSelect, NumberInput, Paper, Select, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useForm } from "@mantine/form";
import { Link, useRevalidator } from "@remix-run/react";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { applyServerErrors } from "../../lib/form-errors";
import { createTemplate, type FieldTemplate, type FieldTemplateBody, type FieldType, fieldTypes } from "../../lib/metadata-api";
import { showInfo } from "../../lib/notify";
import { DeleteTemplate } from "./DeleteTemplate";
import { templateBody } from "./rules";

const t = ru.metadata.templates;
export const typeOptions = fieldTypes.map((value) => ({ value, label: ru.metadata.types[value] }));

/** The field templates tab: the list (a name opens the editor), a form for a new one, delete. */
export function TemplatesPanel({ templates }: { templates: FieldTemplate[] }) {
  const [deleting, setDeleting] = useState<FieldTemplate | null>(null);
  return (
    <Stack gap="md">
      <CreateTemplateForm templates={templates} />
      {templates.length === 0 ? (
        <Text c="dimmed">{ru.metadata.empty}</Text>
      ) : (
        <Table striped highlightOnHover aria-label={ru.metadata.tabs.templates}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t.name}</Table.Th>
              <Table.Th>{t.type}</Table.Th>
              <Table.Th>{t.priority}</Table.Th>
              <Table.Th>{t.extsys}</Table.Th>
              <Table.Th>{ru.metadata.actions}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {templates.map((tpl) => (
              <Table.Tr key={tpl.field_def_id}>
                <Table.Td>
                  <Anchor component={Link} to={`/admin/metadata/${tpl.field_def_id}`}>
                    {tpl.field_def_name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{ru.metadata.types[tpl.field_type] ?? tpl.field_type}</Table.Td>
                <Table.Td>{tpl.field_priority}</Table.Td>
                <Table.Td>
                  {tpl.field_def_extsys
                    ? `${tpl.field_def_extsys}${tpl.field_def_extsys_key ? ` · ${tpl.field_def_extsys_key}` : ""}`
                    : t.none}
                </Table.Td>
                <Table.Td>
                  <Button size="xs" variant="subtle" color="red" onClick={() => setDeleting(tpl)}>
                    {ru.metadata.delete}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <DeleteTemplate template={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}

/** The setup a new template is sent with: the server fills in each type's defaults, but a struct needs its sub-fields. */
const setupFor = (type: FieldType): Record<string, unknown> => (type === "struct" ? { fields: [] } : {});

/** A refused setting shows under its input: only a struct's sub-fields have one here (the toast says the rest). */
const setupField = (type: FieldType) => (field: string) =>
  !field.startsWith("field_setup") ? field : type === "struct" && /^field_setup\.fields(\.|$)/.test(field) ? "field_setup.fields" : null;

/** A new template; a refusal shows under the field the server names, anything else in the toast (applyServerErrors). */
function CreateTemplateForm({ templates }: { templates: FieldTemplate[] }) {
  const { revalidate } = useRevalidator();
  const [busy, setBusy] = useState(false);
  const form = useForm({
    initialValues: {
      field_def_name: "",
      field_type: "text" as FieldType,
      field_priority: 0 as number | string,
      field_def_extsys: "",
      field_def_extsys_key: "",
      field_setup: setupFor("text"),
    },
    validate: zod4Resolver(templateBody),
  });
  const submit = async (values: typeof form.values) => {
    setBusy(true);
    try {
      await createTemplate({ ...values, field_priority: Number(values.field_priority) } as FieldTemplateBody);
      showInfo(t.created);
      form.reset();
      revalidate();
    } catch (err) {
      applyServerErrors(form, err, setupField(values.field_type));
    } finally {
      setBusy(false);
    }
  };
  const typeInput = form.getInputProps("field_type");
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={t.createTitle}>
      <Title order={4} mb="sm">
        {t.createTitle}
      </Title>
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Group align="start">
          <TextInput label={t.name} w={240} {...form.getInputProps("field_def_name")} />
          <Select
            label={t.type}
            data={typeOptions}
            allowDeselect={false}
            w={180}
            {...typeInput}
            onChange={(type) => {
              form.setFieldValue("field_setup", setupFor(type as FieldType));
              typeInput.onChange(type);
            }}
          />
          <NumberInput label={t.priority} allowDecimal={false} w={120} {...form.getInputProps("field_priority")} />
          <TextInput label={t.extsys} w={180} {...form.getInputProps("field_def_extsys")} />
          <TextInput label={t.extsysKey} w={180} {...form.getInputProps("field_def_extsys_key")} />
          {form.values.field_type === "struct" && (
            <MultiSelect
              label={ru.metadata.editor.subFields}
              data={templates.map((tpl) => ({ value: tpl.field_def_id, label: tpl.field_def_name }))}
              searchable
              w={280}
              {...form.getInputProps("field_setup.fields")}
            />
          )}
          <Button type="submit" loading={busy} mt={25}>
            {ru.metadata.create}
          </Button>
        </Group>
      </form>
    </Paper>
  );
}
