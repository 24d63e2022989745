import { Box, Button, Flex, Group, Menu, Overlay, Stack, Text } from "@mantine/core";
import { Link, useLocation, useNavigate, useRevalidator } from "@remix-run/react";
import { editorPath, offersEdit } from "../editor/editable";
import { useEffect, useRef } from "react";
import { useSyncedState } from "../../lib/use-synced-state";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { formatSize } from "../../lib/format";
import { downloadFile, variantPath } from "../mam/download";
import { getAsset, type Asset } from "../mam/mam-api";
import { assetOrder } from "../mam/nav-list";
import { type AssetMetadata, loadAssetMetadata } from "../metadata/asset-metadata";
import { RegionOverlay } from "../metadata/RegionOverlay";
import { Timeline } from "../metadata/Timeline";
import { kindOf } from "../mam/Thumb";
import { MediaView } from "./MediaView";
import { usePdfPage } from "./pdf-page";
import { AssetActions, useAssetUploads, useVersionDrop } from "./AssetActions";
import { AssetTitle } from "./AssetTitle";
import { variantsOf, versionNumbers } from "./asset-actions-api";
import { VersionSwitcher } from "./VersionSwitcher";
import { compareWith, comparePath } from "./compare-api";
import { loadTranscript, type TranscriptState } from "./transcript-api";
import { TranscriptPanel } from "./TranscriptPanel";
import { ReviewPanel } from "./ReviewPanel";
import { loadSimilar, SimilarAssets, type SimilarShown } from "./SimilarAssets";
import { loadReview, type ReviewState } from "./review-api";
import { chooseView, latestVariants, playVariant, shownMime, type Variant, type Viewing } from "./viewer-api";
import { BackLink } from "../ui/BackLink";

export interface ViewerData extends Viewing {
  groupId: string;
  asset: Asset;
  /** The group's assets in the order the list showed them, for previous/next; empty when the group cannot be listed. */
  order: string[];
  /** For a video or audio: the templates and values of its timeline. */
  metadata: AssetMetadata | null;
  /** The asset's version numbers, newest first, and the one shown (null: no content yet). */
  versions: number[];
  version: number | null;
  /** For a video or audio version: its transcript and subtitle track (docs/decisions/059-transcripts.md). */
  transcript: TranscriptState | null;
  /** The shown version's comments and approval (docs/decisions/061-review-and-approval.md). */
  review: ReviewState | null;
  /** «Похожие», still on its way when the file shows. */
  similar: Promise<SimilarShown>;
}

/**
 * The viewer's data: the asset and its latest variants together, then what to show of them (a play link,
 * a text file's start, or a preview), and the group's order. An unreadable asset throws (the route's 404);
 * an unreadable group only leaves previous/next off.
 */
export async function loadViewer(groupId: string, assetId: string, signal: AbortSignal, wanted: number | null = null): Promise<ViewerData> {
  const similar = loadSimilar(assetId);
  const [asset, versions, order] = await Promise.all([
    getAsset(assetId, signal),
    versionNumbers(assetId, signal),
    assetOrder(groupId, assetId).catch((error) => {
      console.error(error);
      return [];
    }),
  ]);
  // An older version only when the address names one that exists (?v=1); otherwise the latest with content.
  const older = wanted !== null && versions.includes(wanted) && wanted !== versions[0] ? wanted : null;
  const all = older !== null ? await variantsOf(assetId, older, signal) : await latestVariants(assetId, signal);
  const version = older ?? all[0]?.version ?? null;
  const viewing = await chooseView(asset, all, signal);
  const kind = viewing.shown ? kindOf("asset", shownMime(viewing.shown, asset.mimetype)) : null;
  const timed = kind === "video" || kind === "audio";
  const [metadata, transcript, review] = await Promise.all([
    timed ? loadAssetMetadata(asset, signal) : null,
    timed && version !== null ? loadTranscript(assetId, version, versions, asset.asset_access.includes("update"), signal) : null,
    version !== null ? loadReview(assetId, version, signal) : null,
  ]);
  return { groupId, asset, order, ...viewing, metadata, versions, version, transcript, review, similar };
}

/** The original of a version: the initial upload, else the master, else whatever is there. */
const original = (variants: Variant[]) =>
  variants.find((v) => v.variant_type === "initial") ?? variants.find((v) => v.variant_type === "master") ?? variants[0] ?? null;

/** /mam/{idGroup}/asset/{id}: the file itself (proxy preferred), previous/next in the group, downloads. */
export function FileViewer({ data }: { data: ViewerData }) {
  const navigate = useNavigate();
  const location = useLocation();
  const { groupId, asset, order } = data;
  const assetId = asset.asset_id;

  const at = order.indexOf(assetId);
  const prev = at > 0 ? order[at - 1] : null;
  const next = at >= 0 && at < order.length - 1 ? order[at + 1] : null;
  const go = (id: string | null) => id && navigate(`/mam/${groupId}/asset/${id}`);
  const save = (v: Variant) => runAction(() => downloadFile(variantPath(v.variant_id), v.file_name || asset.name || v.name));
  const main = original(data.variants);
  const shown = data.shown;
  const renew = shown ? async () => (await playVariant(shown.variant_id)).link : undefined;
  const media = useRef<HTMLMediaElement | null>(null);
  const picture = useRef<HTMLImageElement | null>(null);
  const box = useRef<HTMLDivElement | null>(null);
  const revalidator = useRevalidator();
  // Edits, copies and fresh track links change the transcript in place: reloading the screen would restart the video.
  const [transcript, setTranscript] = useSyncedState(data.transcript);
  const isVideo = !!shown && kindOf("asset", shownMime(shown, asset.mimetype)) === "video";
  const shownKind = shown ? kindOf("asset", shownMime(shown, asset.mimetype)) : null;
  // A PDF's comments are on pages; a click on one opens the PDF shown there (docs/decisions/061, "PDF pages").
  const pdf = usePdfPage(shownKind === "pdf" ? data.link : null, renew);
  const paged = shownKind === "pdf" || asset.mimetype === "application/pdf";
  // Review (issue 38): comments at frames of a video or audio, on the whole of anything else; beside the column on a
  // wide screen (the viewer fills the window's height: a panel under an image would squeeze it), under it on a phone.
  const timed = !!data.link && (shownKind === "video" || shownKind === "audio");
  const review = data.version !== null && data.review ? { version: data.version, initial: data.review } : null;
  const canUpdate = asset.asset_access.includes("update");
  const track =
    isVideo && transcript?.track && transcript.transcript
      ? {
          src: transcript.track.link,
          label: ru.transcripts.trackLabel(transcript.transcript.language),
          language: transcript.transcript.language,
          revision: transcript.transcript.mtime,
        }
      : null;
  // ?t=<seconds> (a search hit in a transcript): the player starts there, once it knows the video's length.
  const startAt = Number(new URLSearchParams(location.search).get("t") ?? "");
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new play link is a new media element, which seeks again
  useEffect(() => {
    const el = media.current;
    if (!el || !Number.isFinite(startAt) || startAt <= 0) return;
    const seek = () => {
      el.currentTime = startAt;
    };
    if (el.readyState >= HTMLMediaElement.HAVE_METADATA) return seek();
    el.addEventListener("loadedmetadata", seek, { once: true });
    return () => el.removeEventListener("loadedmetadata", seek);
  }, [data.link, startAt]);
  const reload = () => revalidator.revalidate();
  useAssetUploads(assetId, reload);
  const drop = useVersionDrop(asset, groupId);

  return (
    <Stack gap="xs" style={{ flex: 1, minHeight: 0, position: "relative" }} ref={box} {...drop.props} data-testid="viewer">
      {drop.over && (
        <Overlay color="#000" backgroundOpacity={0.55} blur={1} radius="md" style={{ border: "2px dashed var(--mantine-color-blue-5)" }}>
          <Stack align="center" justify="center" h="100%">
            <Text fw={600}>{ru.assetActions.dropVersion}</Text>
          </Stack>
        </Overlay>
      )}
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0, flex: "1 1 20rem" }}>
          <BackLink to={`/mam/${groupId}`} label={ru.viewer.back} />
          <AssetTitle assetId={assetId} name={asset.name} canRename={asset.asset_access.includes("update")} onRenamed={reload} />
        </Group>
        <Group gap="xs" wrap="wrap">
          <VersionSwitcher versions={data.versions} shown={data.version} />
          {data.versions.length > 1 && (
            <Button
              size="xs"
              variant="default"
              component={Link}
              to={comparePath(groupId, assetId, compareWith(data.versions, data.version), data.version)}
            >
              {ru.review.compare.open}
            </Button>
          )}
          <AssetActions asset={asset} groupId={groupId} version={data.version} />
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
          {data.variants.length > 1 && (
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
          {offersEdit(asset) && (
            <Button size="xs" variant="light" component={Link} to={editorPath(assetId, location.pathname + location.search)}>
              {ru.editor.edit}
            </Button>
          )}
          <Button size="xs" variant="subtle" component={Link} to={`/asset/${assetId}`}>
            {ru.viewer.info}
          </Button>
        </Group>
      </Group>
      {/* The review panel runs beside the whole column (player, transcript, timeline), so it has the screen's height. */}
      <Flex direction={{ base: "column", sm: "row" }} gap="sm" style={{ flex: 1, minHeight: 0 }}>
        <Stack gap="xs" style={{ flex: 1, minWidth: 0, minHeight: 0 }}>
          {data.shown && data.link ? (
            <MediaView
              key={data.link}
              src={data.link}
              mime={shownMime(data.shown, asset.mimetype)}
              name={asset.name}
              text={data.text}
              renew={renew}
              mediaRef={media}
              pictureRef={picture}
              track={track}
              pdfAt={pdf.at}
            />
          ) : data.preview ? (
            <MediaView src={data.preview} mime="image/jpeg" name={asset.name} />
          ) : (
            <Text c="dimmed">
              {data.blank === "needsDownload"
                ? ru.viewer.needsDownload
                : data.blank === "noPreview"
                  ? ru.viewer.noPreview
                  : ru.viewer.noContent}
            </Text>
          )}
          {transcript && data.version !== null && (
            <TranscriptPanel
              key={`${assetId}:${data.version}`}
              assetId={assetId}
              version={data.version}
              state={transcript}
              canEdit={asset.asset_access.includes("update")}
              video={isVideo}
              media={media}
              onChange={setTranscript}
            />
          )}
          {data.metadata && (
            <Timeline
              assetId={assetId}
              version={asset.asset_latest_version}
              templates={data.metadata.templates}
              values={data.metadata.timecoded}
              lookup={data.metadata.lookup}
              canEdit={asset.asset_access.includes("update")}
              media={media}
            />
          )}
          <SimilarAssets similar={data.similar} groupId={groupId} />
        </Stack>
        {review !== null && (
          <Box
            w={{ base: "100%", sm: "22rem" }}
            mah={{ base: "45%", sm: "100%" }}
            style={{ flexShrink: 0, minHeight: 0, overflowY: "auto" }}
          >
            <ReviewPanel
              key={`${assetId}:${review.version}`}
              assetId={assetId}
              version={review.version}
              initial={review.initial}
              media={timed ? media : null}
              canUpdate={canUpdate}
              access={asset.asset_access}
              drawOn={!data.link ? null : isVideo ? media : shownKind === "image" ? picture : null}
              name={asset.name}
              paged={paged}
              onPage={shownKind === "pdf" && data.link ? pdf.open : null}
              // Without a player (no proxy yet for a caller who may not get the original), a new rendition may bring one.
              onRendition={data.link ? undefined : reload}
            />
          </Box>
        )}
      </Flex>
      {data.metadata && <RegionOverlay media={media} box={box} templates={data.metadata.templates} values={data.metadata.timecoded} />}
    </Stack>
  );
}
