import { Code, type ComboboxItem, Group, Select, Stack, Switch, Text, TextInput } from "@mantine/core";
import { triggerTypes, type FormField } from "../../../shared/udwf/schemas";
import { ru } from "../../i18n/ru";
import { ManualFormEditor } from "./ManualFormEditor";

const t = ru.automations;

export type TriggerValue = {
  type: string;
  group_id?: string;
  subtree?: boolean;
  cron?: string;
  def_id?: string;
  tag_id?: string;
  template?: string;
  status?: "done" | "error";
  form?: FormField[];
};

// A share link's triggers are about its asset, so a group narrows them too.
const byGroup = ["asset.uploaded", "field.changed", "tag.added", "share-link.created", "share-link.opened", "transcript.ready"];
const blank = (s: string) => (s.trim() === "" ? undefined : s.trim());

/** The trigger picker: its kind and what that kind takes (a group, a cron, a tag, a form…). */
export function TriggerEditor(props: {
  value: TriggerValue;
  onChange: (v: TriggerValue) => void;
  tags: ComboboxItem[];
  errors: Record<string, string>;
  hookUrl: string | null;
}) {
  const v = props.value;
  const set = (patch: Partial<TriggerValue>) => props.onChange({ ...v, ...patch });
  const e = props.errors;
  const form = v.form ?? [];
  return (
    <Stack gap="xs">
      <Select
        label={t.triggerType}
        data={triggerTypes.map((type) => ({ value: type, label: t.triggers[type] }))}
        value={v.type}
        onChange={(type) => type && props.onChange({ type, form: type === "manual" ? form : undefined })}
        error={e.type}
      />
      {byGroup.includes(v.type) && (
        <Group align="end">
          <TextInput
            label={t.groupId}
            placeholder={t.idPlaceholder}
            value={v.group_id ?? ""}
            onChange={(x) => set({ group_id: blank(x.currentTarget.value) })}
            error={e.group_id}
            w={360}
          />
          <Switch label={t.subtree} checked={v.subtree !== false} onChange={(x) => set({ subtree: x.currentTarget.checked })} />
        </Group>
      )}
      {v.type === "tag.added" && (
        <Select
          label={t.tagId}
          data={props.tags}
          searchable
          clearable
          value={v.tag_id ?? null}
          onChange={(x) => set({ tag_id: x ?? undefined })}
          error={e.tag_id}
        />
      )}
      {v.type === "field.changed" && (
        <TextInput
          label={t.defId}
          placeholder={t.idPlaceholder}
          value={v.def_id ?? ""}
          onChange={(x) => set({ def_id: blank(x.currentTarget.value) })}
          error={e.def_id}
        />
      )}
      {v.type === "task.finished" && (
        <Group>
          <TextInput
            label={t.template}
            placeholder={t.idPlaceholder}
            value={v.template ?? ""}
            onChange={(x) => set({ template: blank(x.currentTarget.value) })}
            error={e.template}
          />
          <Select
            label={t.status}
            clearable
            data={[
              { value: "done", label: t.runStatus.done },
              { value: "error", label: t.runStatus.failed },
            ]}
            value={v.status ?? null}
            onChange={(x) => set({ status: (x as "done" | "error") ?? undefined })}
          />
        </Group>
      )}
      {v.type === "schedule" && (
        <TextInput
          label={t.cron}
          placeholder="0 3 * * *"
          value={v.cron ?? ""}
          onChange={(x) => set({ cron: x.currentTarget.value })}
          error={e.cron}
        />
      )}
      {v.type === "webhook" && (
        <Text size="sm">
          {t.hookUrl}: {props.hookUrl ? <Code>{props.hookUrl}</Code> : t.hookAfterSave}
        </Text>
      )}
      {v.type === "manual" && <ManualFormEditor form={form} errors={e} onChange={(next) => set({ form: next })} />}
    </Stack>
  );
}
