import { Group, Stack, Text, TextInput } from "@mantine/core";
import { useRevalidator, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { createTag, deleteTag, renameTag, type Tag } from "../../lib/metadata-api";
import { showInfo } from "../../lib/notify";
import { Pager } from "../admin/Pager";
import { ConfirmModal } from "../mam/dialogs";
import { NameForm } from "./NameForm";
import { NamesTable } from "./NamesTable";
import { tagBody } from "./rules";

const t = ru.metadata.tags;

/** The tags tab: the filter (?q=) and page (?page=) are in the address; create, rename in place, delete. */
export function TagsPanel({ tags, q, page }: { tags: Tag[]; q: string; page: number }) {
  const { revalidate } = useRevalidator();
  const [, setSearchParams] = useSearchParams();
  const [text, setText] = useState(q);
  const [deleting, setDeleting] = useState<Tag | null>(null);
  // A new filter starts again from the first page.
  const filter = (query: string) => {
    const params = new URLSearchParams({ tab: "tags" });
    if (query.trim()) params.set("q", query);
    setSearchParams(params, { replace: true, preventScrollReset: true });
  };
  const create = async (tag_name: string) => {
    await createTag(tag_name);
    showInfo(t.created);
    revalidate();
  };
  const rename = async (id: string, tag_name: string) => {
    await renameTag(id, tag_name);
    revalidate();
  };
  return (
    <Stack gap="md">
      <Group align="end" justify="space-between">
        <NameForm field="tag_name" schema={tagBody} label={t.newName} submitLabel={ru.metadata.create} onSubmit={create} />
        <TextInput
          label={t.filter}
          w={280}
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            filter(e.currentTarget.value);
          }}
        />
      </Group>
      {tags.length === 0 ? (
        <Text c="dimmed">{ru.metadata.empty}</Text>
      ) : (
        <NamesTable
          rows={tags}
          aria-label={ru.metadata.tabs.tags}
          idOf={(tag) => tag.tag_id}
          nameOf={(tag) => tag.tag_name}
          field="tag_name"
          schema={tagBody}
          editLabel={ru.metadata.rename}
          onSave={(tag, name) => rename(tag.tag_id, name)}
          onDelete={setDeleting}
        />
      )}
      <Pager page={page} rows={tags.length} />
      <ConfirmModal
        opened={deleting !== null}
        text={deleting ? t.deleteText(deleting.tag_name) : ""}
        confirmLabel={ru.metadata.delete}
        onConfirm={async () => {
          if (deleting && (await runAction(() => deleteTag(deleting.tag_id))) !== undefined) revalidate();
        }}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
