import { Loader, MultiSelect, Select } from "@mantine/core";
import { type ReactNode, useState } from "react";
import { ru } from "../../i18n/ru";
import { listUsers, searchGroups } from "../../lib/admin-api";
import { type PickOption, type SearchOptions, useServerSearch } from "./use-server-search";

export type { PickOption, SearchOptions };

const t = ru.admin.rules;

/** Groups by name through /api/group/search (q needs at least one character). */
export const findGroups: SearchOptions = async (q, signal) =>
  q ? (await searchGroups(q, 0, 20, signal)).map((g) => ({ value: g.group_id, label: g.group_name })) : [];

/** Users by name or login through /api/user?q=. */
export const findUsers: SearchOptions = async (q, signal) =>
  (await listUsers({ q, take: 20 }, signal)).map((u) => ({ value: u.user_id, label: `${u.user_name} (${u.login})` }));

interface PickerProps {
  label: string;
  value: PickOption | null;
  onChange: (value: PickOption | null) => void;
  search: SearchOptions;
  error?: string;
  testId?: string;
}

/**
 * One item picked from server-side search results; the list is not filtered again in the browser. Opening
 * the list asks for what matches the text so far (a first page when nothing is typed); typing asks again.
 */
export function RemotePicker({ label, value, onChange, search, error, testId }: PickerProps) {
  const [text, setText] = useState("");
  const found = useServerSearch(search);
  const data = value && !found.options.some((o) => o.value === value.value) ? [value, ...found.options] : found.options;
  return (
    <Select
      label={label}
      placeholder={t.typeHint}
      searchable
      clearable
      data={data}
      value={value?.value ?? null}
      searchValue={text}
      onSearchChange={(q) => {
        setText(q);
        // Picking an option writes its label into the text: that is not a new search.
        if (q !== value?.label) found.search(q);
      }}
      onDropdownOpen={() => found.search(text)}
      filter={({ options: all }) => all}
      onChange={(id) => onChange(data.find((o) => o.value === id) ?? null)}
      nothingFoundMessage={text.trim() ? ru.admin.empty : t.typeHint}
      rightSection={found.loading ? <Loader size="xs" /> : undefined}
      error={error}
      data-testid={testId}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/** Several groups picked through /api/group/search (a user's chroot groups). */
export const GroupsMultiPicker = (props: {
  label: string;
  description?: string;
  value: PickOption[];
  onChange: (v: PickOption[]) => void;
}) => <RemoteMultiPicker {...props} search={findGroups} />;

/**
 * Several items picked from server-side search results (as RemotePicker, for many): the picked ones stay listed
 * while the options change with the text.
 */
export function RemoteMultiPicker({
  label,
  description,
  value,
  onChange,
  search,
  placeholder = t.typeHint,
  error,
  disabled,
  testId,
}: {
  label: string;
  description?: string;
  placeholder?: string;
  value: PickOption[];
  onChange: (v: PickOption[]) => void;
  search: SearchOptions;
  error?: ReactNode;
  disabled?: boolean;
  testId?: string;
}) {
  const [text, setText] = useState("");
  const found = useServerSearch(search);
  const data = [...value, ...found.options.filter((o) => !value.some((v) => v.value === o.value))];
  return (
    <MultiSelect
      label={label}
      description={description}
      placeholder={placeholder}
      searchable
      clearable
      data={data}
      value={value.map((v) => v.value)}
      searchValue={text}
      onSearchChange={(q) => {
        setText(q);
        found.search(q);
      }}
      onDropdownOpen={() => found.search(text)}
      filter={({ options: all }) => all}
      onChange={(ids) => onChange(ids.map((id) => data.find((o) => o.value === id)).filter((o) => o !== undefined))}
      nothingFoundMessage={text.trim() ? ru.admin.empty : t.typeHint}
      rightSection={found.loading ? <Loader size="xs" /> : undefined}
      error={error}
      disabled={disabled}
      data-testid={testId}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
