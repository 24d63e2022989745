import { Select, Text } from "@mantine/core";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import type { AssetClass } from "../../lib/metadata-api";
import { showInfo } from "../../lib/notify";
import { patchAsset } from "./asset-actions-api";

const t = ru.assetActions;
const NONE = "";

/**
 * The asset's class, from the classes list (GET /api/asset/class); with the update right a picker that saves at once
 * (PATCH /api/asset/{id} asset_class). The class then orders the asset's field form (decision 038).
 */
export function ClassPicker(props: {
  assetId: string;
  classId: string | null;
  /** The classes to pick from, loaded with the screen. */
  classes: AssetClass[];
  canEdit: boolean;
  onChanged: () => void;
}) {
  const { assetId, classId, canEdit, onChanged } = props;
  const classes = props.classes.map((c) => ({ value: c.id, label: c.name }));
  const [busy, setBusy] = useState(false);

  const name = classId ? (classes.find((c) => c.value === classId)?.label ?? classId) : t.noClass;
  if (!canEdit) return <Text size="sm">{name}</Text>;

  const change = async (value: string | null) => {
    const next = value || null;
    if (next === classId) return;
    setBusy(true);
    const done = await runAction(() => patchAsset(assetId, { asset_class: next }));
    setBusy(false);
    if (done) {
      showInfo(t.classChanged);
      onChanged();
    }
  };

  return (
    <Select
      aria-label={t.assetClass}
      size="xs"
      maw={320}
      data={[{ value: NONE, label: t.noClass }, ...classes]}
      value={classId ?? NONE}
      onChange={(v) => void change(v)}
      disabled={busy}
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
