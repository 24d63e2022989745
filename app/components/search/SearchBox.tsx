import { Badge, Button, Combobox, Group, Text, TextInput, useCombobox } from "@mantine/core";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { autocomplete, type Suggestion } from "../../lib/search-api";
import { useServerSearch } from "../admin/use-server-search";

const t = ru.search;

/** A suggestion travels through the combobox as "kind:id:typo", its label as the text. */
const encode = (s: Suggestion) => `${s.kind}:${s.id}:${s.typo ? 1 : 0}`;
const decode = (value: string, text: string): Suggestion => {
  const [kind, id, typo] = value.split(":");
  return { kind: kind as Suggestion["kind"], id, text, typo: typo === "1" };
};

/**
 * The query box: suggestions as you type (arrows move, Enter picks, Esc closes); Enter with none picked
 * searches for the text.
 */
export function SearchBox({
  initial,
  onSearch,
  onPick,
}: {
  initial: string;
  onSearch: (q: string) => void;
  onPick: (s: Suggestion) => void;
}) {
  const [text, setText] = useState(initial);
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const { options, search } = useServerSearch(async (q, signal) =>
    q ? (await autocomplete(q, signal)).map((s) => ({ value: encode(s), label: s.text })) : [],
  );
  const submit = () => {
    combobox.closeDropdown();
    onSearch(text.trim());
  };
  return (
    <search>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Group gap="xs" wrap="nowrap" align="end">
          <Combobox
            store={combobox}
            onOptionSubmit={(value) => {
              const option = options.find((o) => o.value === value);
              combobox.closeDropdown();
              if (option) onPick(decode(value, option.label));
            }}
          >
            <Combobox.Target>
              <TextInput
                style={{ flex: 1 }}
                aria-label={ru.pages.search}
                placeholder={t.placeholder}
                value={text}
                onChange={(e) => {
                  setText(e.currentTarget.value);
                  search(e.currentTarget.value);
                  combobox.openDropdown();
                  combobox.updateSelectedOptionIndex();
                }}
                onFocus={() => text && combobox.openDropdown()}
                onBlur={() => combobox.closeDropdown()}
                onKeyDown={(e) => {
                  // Enter with no suggestion highlighted searches; with one, the combobox picks it.
                  if (e.key === "Enter" && combobox.getSelectedOptionIndex() < 0) {
                    e.preventDefault();
                    submit();
                  }
                }}
              />
            </Combobox.Target>
            <Combobox.Dropdown hidden={options.length === 0}>
              <Combobox.Options aria-label={t.placeholder}>
                {options.map((o) => {
                  const s = decode(o.value, o.label);
                  return (
                    <Combobox.Option value={o.value} key={o.value}>
                      <Group gap="xs" wrap="nowrap" justify="space-between">
                        <Text size="sm" truncate>
                          {s.text}
                        </Text>
                        <Group gap={4} wrap="nowrap">
                          {s.typo && (
                            <Text size="xs" c="dimmed">
                              {t.typo}
                            </Text>
                          )}
                          <Badge size="xs" variant="light">
                            {t.kinds[s.kind]}
                          </Badge>
                        </Group>
                      </Group>
                    </Combobox.Option>
                  );
                })}
              </Combobox.Options>
            </Combobox.Dropdown>
          </Combobox>
          <Button type="submit">{t.submit}</Button>
        </Group>
      </form>
    </search>
  );
}
