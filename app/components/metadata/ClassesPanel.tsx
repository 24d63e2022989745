import { Paper, Stack, Text } from "@mantine/core";
import { useRevalidator } from "@remix-run/react";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { changeClass, createClass, deleteClass, type AssetClass, type FieldTemplate } from "../../lib/metadata-api";
import { showInfo } from "../../lib/notify";
import { ConfirmModal } from "../mam/dialogs";
import { NameForm } from "./NameForm";
import { OrderedTemplates } from "./OrderedTemplates";
import { classNameBody } from "./rules";
import { RenamableTitle } from "./RenamableTitle";

const t = ru.metadata.classes;

/** The asset classes tab: each class with its ordered field templates (add, remove, move up or down), create, rename, delete. */
export function ClassesPanel({ classes, templates }: { classes: AssetClass[]; templates: FieldTemplate[] }) {
  const { revalidate } = useRevalidator();
  const [deleting, setDeleting] = useState<AssetClass | null>(null);
  const create = async (name: string) => {
    await createClass({ name, def_fields: [] });
    showInfo(t.created);
    revalidate();
  };
  return (
    <Stack gap="md">
      <NameForm field="name" schema={classNameBody} label={t.name} submitLabel={ru.metadata.create} onSubmit={create} />
      {classes.length === 0 && <Text c="dimmed">{ru.metadata.empty}</Text>}
      {classes.map((c) => (
        <ClassCard key={c.id} assetClass={c} templates={templates} onDelete={() => setDeleting(c)} />
      ))}
      <ConfirmModal
        opened={deleting !== null}
        text={deleting ? t.deleteText(deleting.name) : ""}
        confirmLabel={ru.metadata.delete}
        onConfirm={async () => {
          if (deleting && (await runAction(() => deleteClass(deleting.id))) !== undefined) revalidate();
        }}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}

function ClassCard({ assetClass, templates, onDelete }: { assetClass: AssetClass; templates: FieldTemplate[]; onDelete: () => void }) {
  const { revalidate } = useRevalidator();
  const setFields = async (def_fields: string[]) => {
    if (await runAction(() => changeClass(assetClass.id, { def_fields }))) revalidate();
  };
  const rename = async (name: string) => {
    await changeClass(assetClass.id, { name });
    revalidate();
  };
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={assetClass.name}>
      <Stack gap="xs">
        <RenamableTitle name={assetClass.name} field="name" schema={classNameBody} onRename={rename} onDelete={onDelete} />
        <Text size="sm" c="dimmed">
          {t.fields}
        </Text>
        <OrderedTemplates
          ids={assetClass.def_fields}
          templates={templates}
          onChange={setFields}
          addLabel={`${t.addField}: ${assetClass.name}`}
          emptyText={t.noFields}
        />
      </Stack>
    </Paper>
  );
}
