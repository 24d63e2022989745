import { Button, Group, Paper, Select, Stack, Table, Text, Title } from "@mantine/core";
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
import { NameRow } from "./NameRow";
import { listBody, recordBody } from "./rules";

const t = ru.metadata.lists;

/** The lists tab: pick a list (?list=), create one; its records are added, edited in place and deleted. */
export function ListsPanel({ lists, listId, records }: { lists: ListInfo[]; listId: string | null; records: ListRecord[] }) {
  const { revalidate } = useRevalidator();
  const [, setSearchParams] = useSearchParams();
  const [editing, setEditing] = useState<string | null>(null);
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const current = lists.find((l) => l.list_id === listId);
  const open = (id: string) => setSearchParams({ tab: "lists", list: id }, { preventScrollReset: true });
  const create = async (name: string) => {
    const created = await runAction(() => createList(name));
    if (!created) return false;
    showInfo(t.created);
    open(created.list_id);
    return true;
  };
  const changed = (ok: unknown) => {
    if (ok === undefined) return false;
    setEditing(null);
    revalidate();
    return true;
  };
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
            <Group justify="space-between">
              {renaming ? (
                <NameForm
                  field="list_name"
                  schema={listBody}
                  initial={current?.list_name}
                  submitLabel={ru.metadata.save}
                  onSubmit={async (name) => {
                    const ok = changed(await runAction(() => renameList(listId, name)));
                    if (ok) setRenaming(false);
                    return ok;
                  }}
                  onCancel={() => setRenaming(false)}
                />
              ) : (
                <Title order={4}>{current?.list_name}</Title>
              )}
              <Group gap="xs">
                <Button size="xs" variant="default" onClick={() => setRenaming(true)}>
                  {ru.metadata.rename}
                </Button>
                <Button size="xs" variant="subtle" color="red" onClick={() => setDeleting(true)}>
                  {ru.metadata.delete}
                </Button>
              </Group>
            </Group>
            <NameForm
              field="rec_data"
              schema={recordBody}
              label={t.newRecord}
              submitLabel={ru.metadata.add}
              onSubmit={async (value) => changed(await runAction(() => createRecord(listId, value)))}
            />
            {records.length === 0 ? (
              <Text c="dimmed">{t.noRecords}</Text>
            ) : (
              <Table striped aria-label={t.record}>
                <Table.Tbody>
                  {records.map((rec) => (
                    <NameRow
                      key={rec.rec_id}
                      text={rec.rec_data}
                      field="rec_data"
                      schema={recordBody}
                      editing={editing === rec.rec_id}
                      editLabel={ru.metadata.edit}
                      onEdit={() => setEditing(rec.rec_id)}
                      onCancel={() => setEditing(null)}
                      onSave={async (value) => changed(await runAction(() => changeRecord(listId, rec.rec_id, value)))}
                      onDelete={async () => changed(await runAction(() => deleteRecord(listId, rec.rec_id)))}
                    />
                  ))}
                </Table.Tbody>
              </Table>
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
