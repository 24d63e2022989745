import { SegmentedControl, Stack } from "@mantine/core";
import { ru } from "../../i18n/ru";
import { groupAssets } from "../../lib/admin-api";
import { findGroups, findUsers, RemotePicker } from "./pickers";
import type { PickOption } from "./pickers";

const t = ru.admin.rules;

export interface Picked {
  type: "user" | "group" | "asset";
  option: PickOption | null;
  /** For an asset: the group it is looked up in. */
  folder?: PickOption | null;
}

/** Who gets the rights: a user (search by name or login) or a group whose members get them. */
export function SubjectPicker({ value, onChange, error }: { value: Picked; onChange: (v: Picked) => void; error?: string }) {
  return (
    <Stack gap={6}>
      <SegmentedControl
        value={value.type}
        onChange={(type) => onChange({ type: type as Picked["type"], option: null })}
        data={[
          { value: "user", label: t.subjectUser },
          { value: "group", label: t.subjectGroup },
        ]}
      />
      <RemotePicker
        key={value.type}
        label={t.subject}
        value={value.option}
        onChange={(option) => onChange({ ...value, option })}
        search={value.type === "user" ? findUsers : findGroups}
        error={error}
        testId="rule-subject"
      />
    </Stack>
  );
}

/** What the rights are on: a group (and its subtree) or one asset, found inside a group by name. */
export function ObjectPicker({ value, onChange, error }: { value: Picked; onChange: (v: Picked) => void; error?: string }) {
  const folder = value.folder ?? null;
  const findAssets = async (q: string, signal: AbortSignal): Promise<PickOption[]> =>
    folder ? (await groupAssets(folder.value, q, signal)).map((m) => ({ value: m.el_id, label: m.el_info.name })) : [];
  return (
    <Stack gap={6}>
      <SegmentedControl
        value={value.type}
        onChange={(type) => onChange({ type: type as Picked["type"], option: null, folder: null })}
        data={[
          { value: "group", label: t.objectGroup },
          { value: "asset", label: t.objectAsset },
        ]}
      />
      {value.type === "group" ? (
        <RemotePicker
          label={t.object}
          value={value.option}
          onChange={(option) => onChange({ ...value, option })}
          search={findGroups}
          error={error}
          testId="rule-object"
        />
      ) : (
        <>
          <RemotePicker
            label={t.assetGroup}
            value={folder}
            onChange={(f) => onChange({ ...value, folder: f, option: null })}
            search={findGroups}
          />
          <RemotePicker
            key={folder?.value ?? "none"}
            label={t.asset}
            value={value.option}
            onChange={(option) => onChange({ ...value, option })}
            search={findAssets}
            error={error}
            testId="rule-object"
          />
        </>
      )}
    </Stack>
  );
}
