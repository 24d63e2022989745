import { Anchor, Button, Group, Loader, Menu, Stack, Text, Title } from "@mantine/core";
import { Link, useNavigate } from "@remix-run/react";
import { useEffect, useState } from "react";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { formatSize } from "../../lib/format";
import { downloadFile, variantPath } from "../mam/download";
import { getAsset, type Asset } from "../mam/mam-api";
import { assetOrder } from "../mam/nav-list";
import { MediaView } from "./MediaView";
import { chooseView, listVariants, playVariant, type Variant, type Viewing } from "./viewer-api";

interface Loaded extends Viewing {
  asset: Asset;
}

/** The original of a version: the initial upload, else the master, else whatever is there. */
const original = (variants: Variant[]) =>
  variants.find((v) => v.variant_type === "initial") ?? variants.find((v) => v.variant_type === "master") ?? variants[0] ?? null;

/** /mam/{idGroup}/asset/{id}: the file itself (proxy preferred), previous/next in the group, downloads. */
export function FileViewer({ groupId, assetId }: { groupId: string; assetId: string }) {
  const navigate = useNavigate();
  const [data, setData] = useState<Loaded | null>(null);
  const [failed, setFailed] = useState(false);
  const [order, setOrder] = useState<string[]>([]);

  useEffect(() => {
    let live = true;
    setData(null);
    setFailed(false);
    void runAction(async () => {
      const asset = await getAsset(assetId);
      const all = asset.asset_latest_version ? await listVariants(assetId, asset.asset_latest_version) : [];
      return { asset, ...(await chooseView(assetId, all, asset.asset_access)) };
    }).then((loaded) => {
      if (!live) return;
      if (loaded) setData(loaded);
      else setFailed(true);
    });
    return () => {
      live = false;
    };
  }, [assetId]);

  useEffect(() => {
    void runAction(() => assetOrder(groupId, assetId)).then((ids) => ids && setOrder(ids));
  }, [groupId, assetId]);

  const at = order.indexOf(assetId);
  const prev = at > 0 ? order[at - 1] : null;
  const next = at >= 0 && at < order.length - 1 ? order[at + 1] : null;
  const go = (id: string | null) => id && navigate(`/mam/${groupId}/asset/${id}`);
  const save = (v: Variant) => runAction(() => downloadFile(variantPath(v.variant_id), v.file_name || data?.asset.name || v.name));
  const main = data ? original(data.variants) : null;
  const shown = data?.shown;
  const renew = shown ? async () => (await playVariant(shown.variant_id)).link : undefined;

  return (
    <Stack gap="xs" style={{ flex: 1, minHeight: 0 }}>
      <Group justify="space-between" wrap="nowrap">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <Anchor component={Link} to={`/mam/${groupId}`} size="sm">
            ← {ru.viewer.back}
          </Anchor>
          <Title order={3} lineClamp={1}>
            {data?.asset.name ?? ""}
          </Title>
        </Group>
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" variant="default" disabled={!prev} onClick={() => go(prev)}>
            {ru.viewer.prev}
          </Button>
          <Button size="xs" variant="default" disabled={!next} onClick={() => go(next)}>
            {ru.viewer.next}
          </Button>
          {main && (
            <Button size="xs" onClick={() => save(main)}>
              {ru.viewer.download}
            </Button>
          )}
          {data && data.variants.length > 1 && (
            <Menu position="bottom-end">
              <Menu.Target>
                <Button size="xs" variant="light">
                  {ru.viewer.downloadVariant}
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {data.variants.map((v) => (
                  <Menu.Item key={v.variant_id} onClick={() => save(v)}>
                    {v.variant_type} · {v.format || v.mime_type} · {formatSize(v.content_size)}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          )}
          <Button size="xs" variant="subtle" component={Link} to={`/asset/${assetId}`}>
            {ru.viewer.info}
          </Button>
        </Group>
      </Group>
      {failed ? (
        <Text c="dimmed">{ru.viewer.notFound}</Text>
      ) : !data ? (
        <Loader size="sm" />
      ) : data.shown && data.link ? (
        <MediaView
          key={data.link}
          src={data.link}
          mime={data.shown.mime_type || data.asset.mimetype}
          name={data.asset.name}
          renew={renew}
        />
      ) : data.preview ? (
        <MediaView src={data.preview} mime="image/jpeg" name={data.asset.name} />
      ) : (
        <Text c="dimmed">
          {data.blank === "needsDownload"
            ? ru.viewer.needsDownload
            : data.blank === "noPreview"
              ? ru.viewer.noPreview
              : ru.viewer.noContent}
        </Text>
      )}
    </Stack>
  );
}
