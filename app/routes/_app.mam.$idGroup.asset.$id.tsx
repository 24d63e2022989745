import { useLoaderData } from "@remix-run/react";
import { groupIdOf } from "../components/mam/contents";
import { openTreeAt } from "../components/mam/tree-store";
import { FileViewer, loadViewer } from "../components/viewer/FileViewer";
import { wantedVersion } from "../components/viewer/VersionSwitcher";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";
import { screenLoader } from "../lib/route-data";

export const meta = pageMeta(ru.pages.fileViewer);

export const clientLoader = screenLoader(async ({ params, request }) => {
  const groupId = groupIdOf(params.idGroup);
  openTreeAt(groupId);
  return loadViewer(groupId, (params.id ?? "").toLowerCase(), request.signal, wantedVersion(new URL(request.url)));
});

export { RouteError as ErrorBoundary } from "../components/RouteError";

/** File viewer for asset {id} opened from group {idGroup}. */
export default function FileViewerPage() {
  return <FileViewer data={useLoaderData<typeof clientLoader>()} />;
}
