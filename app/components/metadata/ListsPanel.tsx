import { Group, Paper, Select, Stack, Text } from "@mantine/core";
import { useRevalidator, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import {
  changeRecord,
  createList,
  createRecord,
  deleteList,
  deleteRecord,
  renameList,
  type ListInfo,
  type ListRecord,
} from "../../lib/metadata-api";
import { showInfo } from "../../lib/notify";
import { ConfirmModal } from "../mam/dialogs";
import { NameForm } from "./NameForm";
import { NamesTable } from "./NamesTable";
import { RenamableTitle } from "./RenamableTitle";
import { listBody, recordBody } from "./rules";

const t = ru.metadata.lists;

/** The lists tab: pick a list (?list=), create one; its records are added, edited in place and deleted. */
export function ListsPanel({ lists, listId, records }: { lists: ListInfo[]; listId: string | null; records: ListRecord[] }) {
  const { revalidate } = useRevalidator();
  const [, setSearchParams] = useSearchParams();
  const [deleting, setDeleting] = useState(false);
  const current = lists.find((l) => l.list_id === listId);
  const open = (id: string) => setSearchParams({ tab: "lists", list: id }, { preventScrollReset: true });
  const create = async (name: string) => {
    const created = await createList(name);
    showInfo(t.created);
    open(created.list_id);
  };
  const changed = (ok: unknown) => {
    if (ok !== undefined) revalidate();
  };
  // The name forms' calls throw a refusal to the form, which shows it under the field or in the toast.
  const saved = (call: Promise<unknown>) => call.then(() => revalidate());
  return (
    <Stack gap="md">
      <Group align="end" justify="space-between">
        <Select
          label={t.list}
          placeholder={t.pick}
          data={lists.map((l) => ({ value: l.list_id, label: l.list_name }))}
          value={listId}
          onChange={(id) => id && open(id)}
          allowDeselect={false}
          searchable
          w={280}
        />
        <NameForm field="list_name" schema={listBody} label={t.newList} submitLabel={ru.metadata.create} onSubmit={create} />
      </Group>
      {listId === null ? (
        <Text c="dimmed">{ru.metadata.empty}</Text>
      ) : (
        <Paper withBorder p="md" radius="md" component="section" aria-label={current?.list_name}>
          <Stack gap="sm">
            <RenamableTitle
              name={current?.list_name ?? ""}
              field="list_name"
              schema={listBody}
              onRename={(name) => saved(renameList(listId, name))}
              onDelete={() => setDeleting(true)}
            />
            <NameForm
              field="rec_data"
              schema={recordBody}
              label={t.newRecord}
              submitLabel={ru.metadata.add}
              onSubmit={(value) => saved(createRecord(listId, value))}
            />
            {records.length === 0 ? (
              <Text c="dimmed">{t.noRecords}</Text>
            ) : (
              <NamesTable
                rows={records}
                aria-label={t.record}
                idOf={(rec) => rec.rec_id}
                nameOf={(rec) => rec.rec_data}
                field="rec_data"
                schema={recordBody}
                editLabel={ru.metadata.edit}
                onSave={(rec, value) => saved(changeRecord(listId, rec.rec_id, value))}
                onDelete={async (rec) => changed(await runAction(() => deleteRecord(listId, rec.rec_id)))}
              />
            )}
          </Stack>
        </Paper>
      )}
      <ConfirmModal
        opened={deleting}
        text={t.deleteText(current?.list_name ?? "")}
        confirmLabel={ru.metadata.delete}
        onConfirm={async () => {
          if (listId && (await runAction(() => deleteList(listId))) !== undefined)
            setSearchParams({ tab: "lists" }, { preventScrollReset: true });
        }}
        onClose={() => setDeleting(false)}
      />
    </Stack>
  );
}
