import { Text } from "@mantine/core";
import { useParams } from "@remix-run/react";
import { PagePlaceholder } from "../components/PagePlaceholder";
import { ShareLinksPanel } from "../components/share/ShareLinksPanel";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.asset);

/** Asset info; /asset without an id is allowed (spec 2). */
export default function AssetInfoPage() {
  const { id } = useParams();
  return (
    <PagePlaceholder title={ru.pages.asset}>
      {id && (
        <Text c="dimmed" size="sm">
          {id}
        </Text>
      )}
      {id && <ShareLinksPanel assetId={id} />}
    </PagePlaceholder>
  );
}
