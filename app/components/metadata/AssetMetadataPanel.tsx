import { Stack, Text, Title } from "@mantine/core";
import { ru } from "../../i18n/ru";
import type { AssetMetadata } from "./asset-metadata";
import { AssetFields } from "./AssetFields";
import { AssetTags } from "./AssetTags";
import { AssetTaxa } from "./AssetTaxa";

const t = ru.metadata.asset;

/** The asset info screen's "Метаданные": fields, tags, taxa; editable with update on the asset, else shown. */
export function AssetMetadataPanel(props: {
  assetId: string;
  tags: { tag_id: string; tag_name: string }[];
  meta: AssetMetadata;
  canEdit: boolean;
}) {
  const { assetId, meta, canEdit } = props;
  return (
    <Stack gap="md" component="section" aria-label={t.title}>
      <Title order={3}>{t.title}</Title>
      {!canEdit && (
        <Text size="sm" c="dimmed">
          {t.readOnly}
        </Text>
      )}
      <AssetFields assetId={assetId} meta={meta} canEdit={canEdit} />
      <Stack gap={4}>
        <Title order={4}>{t.tags}</Title>
        <AssetTags assetId={assetId} tags={props.tags} canEdit={canEdit} />
      </Stack>
      <Stack gap={4}>
        <Title order={4}>{t.taxa}</Title>
        <AssetTaxa assetId={assetId} taxa={meta.taxa} canEdit={canEdit} />
      </Stack>
    </Stack>
  );
}
