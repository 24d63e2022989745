import { ru } from "../../i18n/ru";
import { useStore } from "../../lib/store";
import { MoveModal } from "./dialogs";
import { moveTargets } from "./move";
import { treeStore } from "./tree-store";

const t = ru.assetActions;

/** The words of the tree picker when it copies (the same picker as «Переместить в…»). */
const copyLabels = { title: t.copyTo, target: t.copyTarget, action: t.copy };

/** «Копировать в…» of the viewer's menu and of the selection bar: any group of the tree will do as the target. */
export function CopyToModal({
  opened,
  onCopy,
  onClose,
}: {
  opened: boolean;
  onCopy: (target: string) => Promise<void>;
  onClose: () => void;
}) {
  const tree = useStore(treeStore);
  return <MoveModal opened={opened} targets={moveTargets(tree, "", new Set())} onMove={onCopy} onClose={onClose} labels={copyLabels} />;
}
