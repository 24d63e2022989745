import { Stack, Text, Title } from "@mantine/core";
import { useLoaderData } from "@remix-run/react";
import { loadAssetMetadata } from "../components/metadata/asset-metadata";
import { AssetMetadataPanel } from "../components/metadata/AssetMetadataPanel";
import { ShareLinksPanel, shareLinksOf } from "../components/share/ShareLinksPanel";
import { AssetHistory, assetHistory } from "../components/viewer/AssetHistory";
import { AssetInfo } from "../components/viewer/AssetInfo";
import { assetInfo } from "../components/viewer/viewer-api";
import { ru } from "../i18n/ru";
import { listClasses } from "../lib/metadata-api";
import { pageMeta } from "../lib/meta";
import { screenLoader } from "../lib/route-data";

export const meta = pageMeta(ru.pages.asset);

/** The screen's one info call, its share links, history and the classes to pick from, side by side; an unreadable asset is the boundary's 404. */
export const clientLoader = screenLoader(async ({ params, request }) => {
  const id = params.id?.toLowerCase();
  if (!id) return null;
  const [info, links, history, classes] = await Promise.all([
    assetInfo(id, request.signal),
    shareLinksOf(id, request.signal),
    assetHistory(id, request.signal),
    listClasses(request.signal),
  ]);
  const meta = await loadAssetMetadata(info.asset, request.signal);
  return { info, links, meta, history, classes };
});

export { RouteError as ErrorBoundary } from "../components/RouteError";

/** Asset info; /asset without an id is a valid address that asks the user to pick a file. */
export default function AssetInfoPage() {
  const data = useLoaderData<typeof clientLoader>();
  if (!data) {
    return (
      <Stack>
        <Title order={2}>{ru.pages.asset}</Title>
        <Text c="dimmed">{ru.viewer.noAsset}</Text>
      </Stack>
    );
  }
  return (
    <Stack gap="xl">
      <AssetInfo info={data.info} classes={data.classes} />
      <AssetMetadataPanel
        assetId={data.info.asset.asset_id}
        tags={data.info.asset.tags}
        meta={data.meta}
        canEdit={data.info.asset.asset_access.includes("update")}
      />
      <ShareLinksPanel assetId={data.info.asset.asset_id} links={data.links} />
      <AssetHistory
        key={`${data.info.asset.asset_id}:${data.history.items[0]?.event_id}`}
        assetId={data.info.asset.asset_id}
        first={data.history}
      />
    </Stack>
  );
}
