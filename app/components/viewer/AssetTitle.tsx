import { Button, Group, TextInput, Title, Tooltip } from "@mantine/core";
import { useEffect, useRef, useState } from "react";
import { fileName } from "../../../shared/assets/schemas";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { showInfo } from "../../lib/notify";
import { patchAsset } from "./asset-actions-api";

const t = ru.assetActions;

/** F2 renames, as in a file manager, unless the keys are going into a field. */
const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));

/**
 * The asset's name as the viewer's and the info screen's title: whole (it wraps, and the tooltip holds it too), and
 * with the update right «Переименовать» (or F2) turns it into a field in place: Enter saves (PATCH /api/asset/{id}),
 * Esc cancels. The name is checked as the server checks it.
 */
export function AssetTitle(props: { assetId: string; name: string; canRename: boolean; order?: 2 | 3; onRenamed: () => void }) {
  const { assetId, name, canRename, onRenamed } = props;
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(name);
  const [busy, setBusy] = useState(false);
  const startRef = useRef(() => {});
  startRef.current = () => {
    setValue(name);
    setEditing(true);
  };

  useEffect(() => {
    if (!canRename) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "F2" || typing(event.target)) return;
      event.preventDefault();
      startRef.current();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [canRename]);

  const checked = fileName.safeParse(value);
  const error = checked.success ? null : checked.error.issues[0]?.message;

  const save = async () => {
    if (!checked.success) return;
    if (checked.data === name) return setEditing(false);
    setBusy(true);
    const done = await runAction(() => patchAsset(assetId, { asset_name: checked.data }));
    setBusy(false);
    if (!done) return;
    setEditing(false);
    showInfo(t.renamed);
    onRenamed();
  };

  if (editing)
    return (
      <Group gap="xs" wrap="nowrap" style={{ flex: 1, minWidth: 0 }}>
        <TextInput
          aria-label={t.nameLabel}
          description={t.renameHint}
          value={value}
          error={error}
          disabled={busy}
          autoFocus
          onFocus={(e) => e.currentTarget.select()}
          onChange={(e) => setValue(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              void save();
            } else if (e.key === "Escape") {
              e.preventDefault();
              e.stopPropagation();
              setEditing(false);
            }
          }}
          style={{ flex: 1, minWidth: 0 }}
        />
        <Button size="xs" onClick={() => void save()} loading={busy} disabled={!checked.success}>
          {t.save}
        </Button>
        <Button size="xs" variant="default" onClick={() => setEditing(false)} disabled={busy}>
          {t.cancel}
        </Button>
      </Group>
    );

  return (
    <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
      <Tooltip label={name} openDelay={400} multiline maw={600}>
        <Title order={props.order ?? 3} style={{ overflowWrap: "anywhere", minWidth: 0 }} data-testid="asset-title">
          {name}
        </Title>
      </Tooltip>
      {canRename && (
        <Button size="xs" variant="subtle" onClick={() => startRef.current()} title="F2" style={{ flexShrink: 0 }}>
          {t.rename}
        </Button>
      )}
    </Group>
  );
}
