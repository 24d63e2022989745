import { Group, MultiSelect, Select, TextInput } from "@mantine/core";
import { useEffect, useState } from "react";
import { ru } from "../../i18n/ru";
import { taskNames, type TaskFilters } from "./jobs-api";

const statuses = Object.entries(ru.jobs.status).map(([value, label]) => ({ value, label }));

/** `owners`: the task owners the page knows of (the signed-in user first); the API filters by owner id. */
export function JobsFilters({
  value,
  onChange,
  owners,
}: {
  value: TaskFilters;
  onChange: (f: TaskFilters) => void;
  owners: { value: string; label: string }[];
}) {
  const [names, setNames] = useState<{ value: string; label: string }[]>([]);
  useEffect(() => {
    taskNames().then(
      (rows) => setNames(rows.map((r) => ({ value: r.template_id, label: `${r.name} (${r.count})` }))),
      () => {},
    );
  }, []);
  return (
    <Group align="end" gap="sm">
      <MultiSelect
        label={ru.jobs.filters.status}
        placeholder={ru.jobs.filters.all}
        data={statuses}
        value={value.status}
        onChange={(status) => onChange({ ...value, status })}
        clearable
        w={280}
      />
      <Select
        label={ru.jobs.filters.template}
        placeholder={ru.jobs.filters.all}
        data={names}
        value={value.template}
        onChange={(template) => onChange({ ...value, template })}
        clearable
        w={240}
      />
      <Select
        label={ru.jobs.filters.owner}
        placeholder={ru.jobs.filters.all}
        data={owners}
        value={value.owner}
        onChange={(owner) => onChange({ ...value, owner })}
        clearable
        searchable
        w={220}
      />
      <TextInput
        label={ru.jobs.filters.entity}
        value={value.entity}
        onChange={(e) => onChange({ ...value, entity: e.currentTarget.value })}
        w={320}
      />
    </Group>
  );
}
