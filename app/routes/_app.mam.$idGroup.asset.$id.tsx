import { useParams } from "@remix-run/react";
import { FileViewer } from "../components/viewer/FileViewer";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.fileViewer);

/** File viewer for asset {id} opened from group {idGroup}. */
export default function FileViewerPage() {
  const { idGroup, id } = useParams();
  if (!idGroup || !id) return null;
  return <FileViewer groupId={idGroup.toLowerCase()} assetId={id.toLowerCase()} />;
}
