import { useLoaderData } from "@remix-run/react";
import { groupIdOf } from "../components/mam/contents";
import { openTreeAt } from "../components/mam/tree-store";
import { loadCompare } from "../components/viewer/compare-api";
import { CompareView } from "../components/viewer/CompareView";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";
import { screenLoader } from "../lib/route-data";

export const meta = pageMeta(ru.review.compare.title);

/** Both versions' play links and rates come with the screen; an unreadable asset is the boundary's 404, as in the viewer. */
export const clientLoader = screenLoader(async ({ params, request }) => {
  const groupId = groupIdOf(params.idGroup);
  openTreeAt(groupId);
  return loadCompare(groupId, (params.id ?? "").toLowerCase(), new URL(request.url), request.signal);
});

export { RouteError as ErrorBoundary } from "../components/RouteError";

/** Two versions of asset {id} side by side (issue 38): synced playback, a wipe for images. */
export default function ComparePage() {
  return <CompareView data={useLoaderData<typeof clientLoader>()} />;
}
