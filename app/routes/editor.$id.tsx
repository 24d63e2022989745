import { Group, Stack, Title } from "@mantine/core";
import { useLoaderData, useNavigate } from "@remix-run/react";
import { useMemo } from "react";
import { safeReturnPath } from "../../shared/lib/return-path";
import { textKind } from "../components/editor/editable";
import { OfficeFallback } from "../components/editor/OfficeFallback";
import { OfficeFrame } from "../components/editor/OfficeFrame";
import { loadTextDoc, TextEditor } from "../components/editor/TextEditor";
import { WopiFile, wopiToken } from "../components/editor/wopi-client";
import { getAsset } from "../components/mam/mam-api";
import { PageLoader } from "../components/PageLoader";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";
import { screenLoader } from "../lib/route-data";
import { BackLink } from "../components/ui/BackLink";

export const meta = pageMeta(ru.pages.editor);

/**
 * /editor/{id}: the document editor, full window, outside the layout, signed-in only like the layout's screens.
 * The office server's editor when one is configured and opens the type (the token answer's urlsrc), else the
 * built-in text editor, else how to connect an office server. docs/decisions/046-wopi.md.
 */
export const clientLoader = screenLoader(async ({ params, request }) => {
  const id = (params.id ?? "").toLowerCase();
  const [asset, token] = await Promise.all([getAsset(id, request.signal), wopiToken(id)]);
  const from = new URL(request.url).searchParams.get("from");
  const back = from ? safeReturnPath(from, window.location.origin) : `/asset/${id}`;
  const kind = token.urlsrc ? null : textKind(asset.name, asset.mimetype);
  // The built-in editor's document comes with the screen; the lock is the editor's to take and give back.
  const doc = kind ? await loadTextDoc(new WopiFile(token.wopi_src, token.access_token)) : null;
  return { asset, token, back, kind, doc };
});

export const HydrateFallback = PageLoader;

export { RouteError as ErrorBoundary } from "../components/RouteError";

export default function EditorPage() {
  const { asset, token, back, kind, doc } = useLoaderData<typeof clientLoader>();
  const navigate = useNavigate();
  const file = useMemo(() => new WopiFile(token.wopi_src, token.access_token), [token]);
  return (
    <Stack gap="xs" p="sm" style={{ height: "100vh" }}>
      <Group gap="sm" wrap="nowrap">
        <BackLink to={back} label={ru.editor.back} />
        <Title order={3} lineClamp={1}>
          {asset.name}
        </Title>
      </Group>
      {token.urlsrc ? (
        <OfficeFrame urlsrc={token.urlsrc} token={token.access_token} ttl={token.access_token_ttl} />
      ) : kind && doc ? (
        <TextEditor file={file} doc={doc} kind={kind} onClose={() => navigate(back)} />
      ) : (
        <OfficeFallback assetId={asset.asset_id} name={asset.name} version={asset.asset_latest_version ?? null} />
      )}
    </Stack>
  );
}
