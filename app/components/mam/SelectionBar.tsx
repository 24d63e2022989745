import { Button, Group, Text } from "@mantine/core";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { runAction, runCriticalAction } from "../../lib/actions";
import { showInfo } from "../../lib/notify";
import { useStore } from "../../lib/store";
import { BulkMetadata } from "../metadata/BulkMetadata";
import { ConfirmModal, MoveModal } from "./dialogs";
import { downloadFile, variantPath } from "./download";
import { chunks, deleteAssets, deleteGroups, VIRTUAL_ROOT_ID, type Member } from "./mam-api";
import { moveDropped, moveTargets, refreshTree } from "./move";
import { treeStore } from "./tree-store";
import { CopyToModal } from "./CopyToModal";
import { copyAssets } from "../viewer/asset-actions-api";
import { loadTaskOffers, RunTaskModal, type TaskOffers } from "../viewer/RunTaskModal";

/** Actions on the selected items of the open group: download, move, delete (with confirmation); `onChanged` reloads the list. */
export function SelectionBar(props: { groupId: string; selected: Member[]; onClear: () => void; onChanged: () => void }) {
  const { groupId, selected, onClear, onChanged } = props;
  const [dialog, setDialog] = useState<"move" | "copy" | "delete" | null>(null);
  const [task, setTask] = useState<TaskOffers | null>(null);
  const tree = useStore(treeStore);
  const assets = selected.filter((m) => m.el_type === "asset");
  const groups = selected.filter((m) => m.el_type === "group");

  const download = () =>
    runAction(async () => {
      for (const a of assets) if (a.el_info.var) await downloadFile(variantPath(a.el_info.var), a.el_info.name);
    });

  const remove = async () => {
    await runCriticalAction(async () => {
      for (const part of chunks(groups.map((g) => g.el_id))) await deleteGroups(part);
      for (const part of chunks(assets.map((a) => a.el_id))) await deleteAssets(part);
    });
    onClear();
    await refreshTree([groupId]);
    onChanged();
    showInfo(ru.mam.deleted);
  };

  const move = async (target: string) => {
    const ok = await moveDropped({ from: groupId, members: selected.map((m) => ({ el_id: m.el_id, el_type: m.el_type })) }, target);
    onChanged();
    if (ok) {
      onClear();
      setDialog(null);
    }
  };

  const targets = moveTargets(tree, groupId, new Set(selected.map((m) => m.el_id)));

  // «Копировать в…» copies the selected assets (the API copies assets, not groups); into the open group too.
  const copy = async (target: string) => {
    const n = await runAction(() =>
      copyAssets(
        assets.map((a) => a.el_id),
        target,
      ),
    );
    if (n) {
      showInfo(ru.assetActions.copied(n));
      setDialog(null);
      if (target === groupId) onChanged();
    }
  };

  return (
    <Group gap="xs">
      <Text size="sm">{ru.mam.selected(selected.length)}</Text>
      {assets.some((a) => a.el_info.var) && (
        <Button size="xs" variant="light" onClick={download}>
          {ru.mam.download}
        </Button>
      )}
      {groupId !== VIRTUAL_ROOT_ID && (
        <Button size="xs" variant="light" onClick={() => setDialog("move")}>
          {ru.mam.moveTo}
        </Button>
      )}
      {assets.length > 0 && (
        <Button size="xs" variant="light" onClick={() => setDialog("copy")}>
          {ru.assetActions.copyTo}
        </Button>
      )}
      {assets.length > 0 && (
        <Button size="xs" variant="light" onClick={() => setTask(loadTaskOffers(assets.map((a) => a.el_id)))}>
          {ru.assetActions.runTask}
        </Button>
      )}
      <BulkMetadata assetIds={assets.map((a) => a.el_id)} onDone={onChanged} />
      <Button size="xs" variant="light" color="red" onClick={() => setDialog("delete")}>
        {ru.mam.delete}
      </Button>
      <Button size="xs" variant="subtle" color="gray" onClick={onClear}>
        {ru.mam.clearSelection}
      </Button>
      <ConfirmModal
        opened={dialog === "delete"}
        text={ru.mam.confirmDeleteMany(selected.length)}
        confirmLabel={ru.mam.delete}
        onConfirm={remove}
        onClose={() => setDialog(null)}
      />
      <MoveModal opened={dialog === "move"} targets={targets} onMove={move} onClose={() => setDialog(null)} />
      <CopyToModal opened={dialog === "copy"} onCopy={copy} onClose={() => setDialog(null)} />
      <RunTaskModal task={task} onClose={() => setTask(null)} />
    </Group>
  );
}
