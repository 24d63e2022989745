import { Button, Group, Select, Stack, Text } from "@mantine/core";
import { useRevalidator } from "@remix-run/react";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { changeValue, createValue, deleteValue, type FieldTemplate, type FieldValue } from "../../lib/metadata-api";
import { showInfo } from "../../lib/notify";
import type { AssetMetadata } from "./asset-metadata";
import { FieldInput } from "./FieldInput";

const t = ru.metadata.asset;

/** One field of the asset: its input with the stored value, saved or removed on its own. */
function FieldRow({
  assetId,
  template,
  value,
  meta,
  canEdit,
}: {
  assetId: string;
  template: FieldTemplate;
  value: FieldValue | undefined;
  meta: AssetMetadata;
  canEdit: boolean;
}) {
  const { revalidate } = useRevalidator();
  const [draft, setDraft] = useState<unknown>(value?.field_data ?? null);
  const [busy, setBusy] = useState(false);
  const stored = value?.field_data ?? null;
  const changed = JSON.stringify(draft) !== JSON.stringify(stored);
  const act = async (action: () => Promise<unknown>, done: string) => {
    setBusy(true);
    const ok = (await runAction(action)) !== undefined;
    setBusy(false);
    if (!ok) return;
    showInfo(done);
    revalidate();
  };
  const save = () =>
    act(
      () =>
        value
          ? changeValue(value.field_id, { field_data: draft })
          : createValue({ entity_id: assetId, entity_type: "asset", def_id: template.field_def_id, field_data: draft }),
      t.saved,
    );
  return (
    <Group align="end" gap="xs" wrap="nowrap" data-testid="asset-field" data-field={template.field_def_name}>
      <div style={{ flex: 1, minWidth: 0 }}>
        <FieldInput template={template} value={draft} onChange={setDraft} lookup={meta.lookup} disabled={!canEdit} />
      </div>
      {canEdit && (
        <>
          <Button size="xs" onClick={save} disabled={!changed || draft === null || draft === ""} loading={busy}>
            {t.save}
          </Button>
          {value && (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              onClick={() => act(() => deleteValue(value.field_id), t.removed)}
              aria-label={`${t.remove}: ${template.field_def_name}`}
            >
              ×
            </Button>
          )}
        </>
      )}
    </Group>
  );
}

/**
 * The asset's field values: its class's fields in the class's order, then the other values it has, each with the
 * editor of its type; a field not shown yet can be added. Read-only without update on the asset.
 */
export function AssetFields({ assetId, meta, canEdit }: { assetId: string; meta: AssetMetadata; canEdit: boolean }) {
  const [added, setAdded] = useState<string[]>([]);
  const shown = [...meta.shown, ...meta.templates.filter((tpl) => added.includes(tpl.field_def_id) && !meta.shown.includes(tpl))];
  const others = meta.templates.filter((tpl) => !shown.includes(tpl));
  const storedValue = (defId: string) => meta.values.find((v) => v.def_id === defId);
  return (
    <Stack gap="xs">
      {meta.className && (
        <Text size="sm" c="dimmed">
          {t.classFields(meta.className)}
        </Text>
      )}
      {shown.length === 0 && (
        <Text size="sm" c="dimmed">
          {t.noFields}
        </Text>
      )}
      {shown.map((tpl) => {
        const value = storedValue(tpl.field_def_id);
        // A value changed elsewhere (a revalidation) starts the row afresh.
        return (
          <FieldRow
            key={`${tpl.field_def_id}:${value?.field_id ?? "new"}:${JSON.stringify(value?.field_data ?? null)}`}
            assetId={assetId}
            template={tpl}
            value={value}
            meta={meta}
            canEdit={canEdit}
          />
        );
      })}
      {canEdit && others.length > 0 && (
        <Select
          label={t.addField}
          placeholder={t.addField}
          data={others.map((tpl) => ({ value: tpl.field_def_id, label: tpl.field_def_name }))}
          value={null}
          onChange={(id) => id && setAdded((a) => [...a, id])}
          searchable
          w={320}
          comboboxProps={{ withinPortal: true }}
        />
      )}
      {meta.timecoded.length > 0 && (
        <Text size="xs" c="dimmed">
          {t.timecoded(meta.timecoded.length)}
        </Text>
      )}
    </Stack>
  );
}
