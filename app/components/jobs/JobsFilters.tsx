import { Group, MultiSelect, Select, TextInput } from "@mantine/core";
import { ru } from "../../i18n/ru";
import type { TaskFilters } from "./jobs-api";

const statuses = Object.entries(ru.jobs.status).map(([value, label]) => ({ value, label }));

type Option = { value: string; label: string };

/**
 * `templates`: the task templates with their counts; `owners`: the task owners the page knows of (the
 * signed-in user first). The API filters by their ids.
 */
export function JobsFilters({
  value,
  onChange,
  templates,
  owners,
}: {
  value: TaskFilters;
  onChange: (f: TaskFilters) => void;
  templates: Option[];
  owners: Option[];
}) {
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
        data={templates}
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
