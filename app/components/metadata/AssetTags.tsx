import { Autocomplete, Badge, CloseButton, Group, Stack, Text } from "@mantine/core";
import { useRevalidator } from "@remix-run/react";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { attachTags, createTag, detachTags, findTags } from "../../lib/metadata-api";
import { type SearchOptions, useServerSearch } from "../admin/use-server-search";

const t = ru.metadata.asset;

const searchTags: SearchOptions = async (q, signal) =>
  q ? (await findTags(q, 0, 10, signal)).map((tag) => ({ value: tag.tag_id, label: tag.tag_name })) : [];

/**
 * The asset's tags as chips: typing suggests existing tags (prefix and substring, from the server); picking one or
 * pressing Enter on a name attaches it, creating the tag when no tag has that name. Without update: chips only.
 */
export function AssetTags({ assetId, tags, canEdit }: { assetId: string; tags: { tag_id: string; tag_name: string }[]; canEdit: boolean }) {
  const { revalidate } = useRevalidator();
  const [text, setText] = useState("");
  const found = useServerSearch(searchTags);
  const entity = [{ id: assetId, type: "asset" as const }];

  const add = async (name: string) => {
    const wanted = name.trim();
    if (!wanted) return;
    const known = found.options.find((o) => o.label.toLocaleLowerCase("ru") === wanted.toLocaleLowerCase("ru"));
    const done = await runAction(async () => {
      const id = known?.value ?? (await createTag(wanted)).tag_id;
      await attachTags([id], entity);
      return true;
    });
    if (!done) return;
    setText("");
    revalidate();
  };
  const remove = async (id: string) => {
    if ((await runAction(() => detachTags([id], entity))) !== undefined) revalidate();
  };

  return (
    <Stack gap={6}>
      <Group gap={6}>
        {tags.length === 0 && (
          <Text size="sm" c="dimmed">
            {t.noTags}
          </Text>
        )}
        {tags.map((tag) => (
          <Badge
            key={tag.tag_id}
            variant="light"
            size="lg"
            rightSection={
              canEdit ? <CloseButton size="xs" aria-label={t.tagRemove(tag.tag_name)} onClick={() => remove(tag.tag_id)} /> : null
            }
          >
            {tag.tag_name}
          </Badge>
        ))}
      </Group>
      {canEdit && (
        <Autocomplete
          label={t.tagInput}
          placeholder={t.tagHint}
          w={320}
          value={text}
          data={found.options.map((o) => o.label)}
          filter={({ options }) => options}
          onChange={(value) => {
            setText(value);
            found.search(value);
          }}
          onOptionSubmit={(name) => void add(name)}
          onKeyDown={(event) => {
            // Enter on typed text (no option highlighted) adds it; with an option highlighted the list submits it.
            if (event.key === "Enter" && !event.currentTarget.getAttribute("aria-activedescendant")) {
              event.preventDefault();
              void add(text);
            }
          }}
          comboboxProps={{ withinPortal: true }}
        />
      )}
    </Stack>
  );
}
