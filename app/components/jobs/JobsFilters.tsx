import { Group, MultiSelect, Select, TextInput } from "@mantine/core";
import { useEffect, useState } from "react";
import { ru } from "../../i18n/ru";
import { taskNames, type TaskFilters } from "./jobs-api";

const statuses = Object.entries(ru.jobs.status).map(([value, label]) => ({ value, label }));

export function JobsFilters({ value, onChange }: { value: TaskFilters; onChange: (f: TaskFilters) => void }) {
  const [names, setNames] = useState<{ value: string; label: string }[]>([]);
  useEffect(() => {
    taskNames().then((rows) => setNames(rows.map((r) => ({ value: r.template_id, label: `${r.name} (${r.count})` }))), () => {});
  }, []);
  return (
    <Group align="end" gap="sm">
      <MultiSelect label={ru.jobs.filters.status} placeholder={ru.jobs.filters.all} data={statuses} value={value.status} onChange={(status) => onChange({ ...value, status })} clearable w={280} />
      <Select label={ru.jobs.filters.template} placeholder={ru.jobs.filters.all} data={names} value={value.template} onChange={(template) => onChange({ ...value, template })} clearable w={240} />
      <TextInput label={ru.jobs.filters.entity} value={value.entity} onChange={(e) => onChange({ ...value, entity: e.currentTarget.value })} w={320} />
    </Group>
  );
}
