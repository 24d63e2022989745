import { Button, Group, Image, Stack, Text, Title } from "@mantine/core";
import type { PublicInfo } from "../../../shared/sl/schemas";
import { ru } from "../../i18n/ru";
import { formatDateTime, formatSize } from "../../lib/format";

/** The shared file: name, size, what the link allows to see (preview or player) and the download buttons. */
export function SharedFile({ info }: { info: PublicInfo }) {
  return (
    <Stack gap="md">
      <div>
        <Title order={2} style={{ wordBreak: "break-word" }}>
          {info.name}
        </Title>
        <Text c="dimmed" size="sm">
          {[info.mime, info.size !== null ? formatSize(info.size) : null].filter(Boolean).join(" · ")}
        </Text>
      </div>
      <Media info={info} />
      {(info.download || info.download_proxy) && (
        <Group>
          {info.download && (
            <Button component="a" href={info.download} download={info.name ?? true}>
              {ru.share.download}
            </Button>
          )}
          {info.download_proxy && (
            <Button component="a" href={info.download_proxy} variant="light" download>
              {ru.share.downloadProxy}
            </Button>
          )}
        </Group>
      )}
      {info.expires_at !== null && (
        <Text c="dimmed" size="xs" suppressHydrationWarning>
          {ru.share.expiresAt(formatDateTime(info.expires_at))}
        </Text>
      )}
    </Stack>
  );
}

const mediaStyle = { width: "100%", maxHeight: "70vh", background: "#000", borderRadius: 8 };

/** Native elements only: they play with Range requests and need no script. */
function Media({ info }: { info: PublicInfo }) {
  if (info.kind === "video" && info.play) {
    return (
      // biome-ignore lint/a11y/useMediaCaption: a user's own file, which comes with no caption track
      <video
        controls
        preload="metadata"
        src={info.play}
        poster={info.preview ?? undefined}
        style={mediaStyle}
        aria-label={info.name ?? undefined}
      />
    );
  }
  if (info.kind === "audio" && info.play) {
    return (
      <Stack gap="xs">
        {/* A sound's preview is its waveform (docs/decisions/073-pdf-pages-as-pictures.md). */}
        {info.preview && <Image src={info.preview} alt="" radius="md" />}
        {/* biome-ignore lint/a11y/useMediaCaption: a user's own file, which comes with no caption track */}
        <audio controls preload="metadata" src={info.play} style={{ width: "100%" }} aria-label={info.name ?? undefined} />
      </Stack>
    );
  }
  // A PDF plays as its proxy, the pages as pictures (docs/decisions/073-pdf-pages-as-pictures.md), in the browser's viewer.
  if (info.mime === "application/pdf" && info.play) {
    return <iframe src={info.play} title={info.name ?? ""} style={{ ...mediaStyle, height: "70vh", border: 0, background: "white" }} />;
  }
  const image = info.preview ?? (info.kind === "image" ? info.play : null);
  if (image) return <Image src={image} alt={info.name ?? ""} mah="70vh" fit="contain" radius="md" />;
  if (!info.play && !info.preview && !info.download && !info.download_proxy) return <Text c="dimmed">{ru.share.noContent}</Text>;
  return <Text c="dimmed">{ru.share.noPreview}</Text>;
}
