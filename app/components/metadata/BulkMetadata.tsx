import { Button, Modal, MultiSelect, Select, Stack } from "@mantine/core";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { attachTags, createValues, detachTags, type FieldTemplate, findTags, listRecords, listTemplates } from "../../lib/metadata-api";
import { showInfo } from "../../lib/notify";
import { type PickOption, type SearchOptions, useServerSearch } from "../admin/use-server-search";
import { FieldInput, type FieldLookup } from "./FieldInput";
import { DialogActions } from "../ui/DialogActions";

const t = ru.metadata.bulk;

const searchTags: SearchOptions = async (q, signal) =>
  q ? (await findTags(q, 0, 20, signal)).map((tag) => ({ value: tag.tag_id, label: tag.tag_name })) : [];

/** One field set on every selected asset: its whole-asset value is replaced, in one all-or-nothing call. */
function SetFieldModal({
  assetIds,
  templates,
  onClose,
  onDone,
}: {
  assetIds: string[];
  templates: FieldTemplate[];
  onClose: () => void;
  onDone: () => void;
}) {
  const [defId, setDefId] = useState<string | null>(null);
  const [value, setValue] = useState<unknown>(null);
  const [lookup, setLookup] = useState<FieldLookup>({ templates, choices: {} });
  const template = templates.find((x) => x.field_def_id === defId) ?? null;
  const pick = async (id: string | null) => {
    setDefId(id);
    setValue(null);
    const chosen = templates.find((x) => x.field_def_id === id);
    const listId =
      chosen?.field_type === "text" && "list_id" in chosen.field_setup ? (chosen.field_setup.list_id as string | undefined) : undefined;
    if (!listId) return;
    const records = await runAction(() => listRecords(listId));
    if (records) setLookup((l) => ({ ...l, choices: { ...l.choices, [listId]: records.map((r) => r.rec_data) } }));
  };
  const apply = async () => {
    if (!template) return;
    const values = assetIds.map((id) => ({
      entity_id: id,
      entity_type: "asset" as const,
      def_id: template.field_def_id,
      field_data: value,
    }));
    const done = await runAction(() => createValues({ values, replace: true }));
    if (done === undefined) return;
    showInfo(t.fieldSet(assetIds.length));
    onDone();
  };
  return (
    <Modal opened onClose={onClose} title={t.setField} centered>
      <Stack>
        <Select
          label={t.field}
          data={templates.map((x) => ({ value: x.field_def_id, label: x.field_def_name }))}
          value={defId}
          onChange={pick}
          searchable
          comboboxProps={{ withinPortal: true }}
        />
        {template && <FieldInput template={template} value={value} onChange={setValue} lookup={lookup} />}
        <DialogActions
          cancelLabel={t.cancel}
          onCancel={onClose}
          label={t.apply}
          onAction={apply}
          disabled={!template || value === null || value === ""}
        />
      </Stack>
    </Modal>
  );
}

/** Tags picked from the server's suggestions, then attached to (or detached from) every selected asset. */
function TagsModal({
  assetIds,
  mode,
  onClose,
  onDone,
}: {
  assetIds: string[];
  mode: "add" | "remove";
  onClose: () => void;
  onDone: () => void;
}) {
  const found = useServerSearch(searchTags);
  const [picked, setPicked] = useState<PickOption[]>([]);
  const data = [...picked, ...found.options.filter((o) => !picked.some((p) => p.value === o.value))];
  const apply = async () => {
    const ids = picked.map((p) => p.value);
    const entities = assetIds.map((id) => ({ id, type: "asset" as const }));
    const done = await runAction(() => (mode === "add" ? attachTags(ids, entities) : detachTags(ids, entities)));
    if (done === undefined) return;
    showInfo(mode === "add" ? t.tagsAdded(assetIds.length) : t.tagsRemoved(assetIds.length));
    onDone();
  };
  return (
    <Modal opened onClose={onClose} title={mode === "add" ? t.addTags : t.removeTags} centered>
      <Stack>
        <MultiSelect
          label={t.tags}
          placeholder={t.tagsHint}
          data={data}
          value={picked.map((p) => p.value)}
          onChange={(ids) => setPicked(ids.flatMap((id) => data.find((o) => o.value === id) ?? []))}
          onSearchChange={found.search}
          filter={({ options }) => options}
          searchable
          comboboxProps={{ withinPortal: true }}
        />
        <DialogActions cancelLabel={t.cancel} onCancel={onClose} label={t.apply} onAction={apply} disabled={picked.length === 0} />
      </Stack>
    </Modal>
  );
}

/** The selection bar's metadata actions on the selected assets; `onDone` reloads the list. */
export function BulkMetadata({ assetIds, onDone }: { assetIds: string[]; onDone: () => void }) {
  const [dialog, setDialog] = useState<{ kind: "field"; templates: FieldTemplate[] } | { kind: "add" | "remove" } | null>(null);
  // The templates are loaded when the dialog that needs them opens.
  const openField = async () => {
    const templates = await runAction(() => listTemplates());
    if (templates) setDialog({ kind: "field", templates });
  };
  const done = () => {
    setDialog(null);
    onDone();
  };
  if (assetIds.length === 0) return null;
  return (
    <>
      <Button size="xs" variant="light" onClick={openField}>
        {t.setField}
      </Button>
      <Button size="xs" variant="light" onClick={() => setDialog({ kind: "add" })}>
        {t.addTags}
      </Button>
      <Button size="xs" variant="light" onClick={() => setDialog({ kind: "remove" })}>
        {t.removeTags}
      </Button>
      {dialog?.kind === "field" && (
        <SetFieldModal assetIds={assetIds} templates={dialog.templates} onClose={() => setDialog(null)} onDone={done} />
      )}
      {(dialog?.kind === "add" || dialog?.kind === "remove") && (
        <TagsModal assetIds={assetIds} mode={dialog.kind} onClose={() => setDialog(null)} onDone={done} />
      )}
    </>
  );
}
