import { Stack, Text, Title } from "@mantine/core";
import { useParams } from "@remix-run/react";
import { ShareLinksPanel } from "../components/share/ShareLinksPanel";
import { AssetInfo } from "../components/viewer/AssetInfo";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.asset);

/** Asset info; /asset without an id is allowed (spec 2). */
export default function AssetInfoPage() {
  const { id } = useParams();
  if (!id) {
    return (
      <Stack>
        <Title order={2}>{ru.pages.asset}</Title>
        <Text c="dimmed">{ru.viewer.noAsset}</Text>
      </Stack>
    );
  }
  return (
    <Stack gap="xl">
      <AssetInfo id={id.toLowerCase()} />
      <ShareLinksPanel assetId={id} />
    </Stack>
  );
}
