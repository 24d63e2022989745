import { Alert, Button, Group, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import * as assets from "../../../shared/assets/contract";
import { call } from "../../lib/api";
import { runAction } from "../../lib/actions";
import { downloadFile, originalPath } from "../mam/download";
import { playVariant } from "../viewer/viewer-api";

const t = ru.editor.office;

/**
 * An office document with no office server configured: how to connect one, the document's PDF copy
 * (asset-proxy-doc) when there is one, and the download.
 */
export function OfficeFallback({ assetId, name, version }: { assetId: string; name: string; version: number | null }) {
  const [noPdf, setNoPdf] = useState(false);
  const openPdf = () =>
    runAction(async () => {
      if (version === null) return setNoPdf(true);
      const v = await call(assets.proxyDoc, { params: { id: assetId, v: version } }).catch(() => null);
      if (!v) return setNoPdf(true);
      window.open((await playVariant(v.variant_id)).link, "_blank", "noopener");
    });
  return (
    <Stack maw={720}>
      <Alert color="blue" title={t.title}>
        <Text size="sm">{t.text}</Text>
      </Alert>
      <Group>
        <Button onClick={openPdf} disabled={noPdf || version === null}>
          {noPdf ? t.noPdf : t.pdf}
        </Button>
        <Button variant="default" onClick={() => runAction(() => downloadFile(originalPath(assetId), name))}>
          {t.download}
        </Button>
      </Group>
    </Stack>
  );
}
