import { ActionIcon, Box, Code, Group, Text } from "@mantine/core";
import { type MutableRefObject, type RefObject, type SyntheticEvent, useEffect, useRef, useState } from "react";
import { ru } from "../../i18n/ru";
import { kindOf } from "../mam/Thumb";
import { type PdfAt, pdfSrc } from "./pdf-page";
import { useSignedImage } from "../../lib/use-signed-image";

/** The viewer's media fill the space the screen leaves them. */
const fill = { width: "100%", maxHeight: "100%", flex: 1, minHeight: 0 } as const;

function ImageView({ src, name, pictureRef }: { src: string; name: string; pictureRef?: RefObject<HTMLImageElement | null> }) {
  const [zoom, setZoom] = useState(1);
  // A preview (under /api/asset/content/) on a browser's first page is signed only once the service worker is in control.
  const image = useSignedImage();
  const step = (factor: number) => setZoom((z) => Math.min(8, Math.max(0.125, z * factor)));
  return (
    <Box style={{ display: "flex", flexDirection: "column", flex: 1, minHeight: 0 }}>
      <Group gap={4} mb={4}>
        <ActionIcon variant="default" aria-label={ru.viewer.zoomOut} onClick={() => step(1 / 1.5)}>
          −
        </ActionIcon>
        <ActionIcon variant="default" aria-label={ru.viewer.zoomIn} onClick={() => step(1.5)}>
          +
        </ActionIcon>
        <ActionIcon variant="default" aria-label={ru.viewer.zoomReset} onClick={() => setZoom(1)}>
          1:1
        </ActionIcon>
        <Text size="xs" c="dimmed" data-testid="zoom">
          {Math.round(zoom * 100)}%
        </Text>
      </Group>
      <Box
        style={{ flex: 1, minHeight: 0, overflow: "auto", textAlign: "center" }}
        onWheel={(e) => {
          if (e.ctrlKey) {
            e.preventDefault();
            step(e.deltaY < 0 ? 1.25 : 0.8);
          }
        }}
      >
        <img
          key={image.attempt}
          ref={(el) => {
            if (pictureRef) (pictureRef as MutableRefObject<HTMLImageElement | null>).current = el;
            image.ref(el);
          }}
          src={src}
          onError={image.onError}
          alt={name}
          style={zoom === 1 ? { maxWidth: "100%", maxHeight: "100%" } : { width: `${zoom * 100}%`, maxWidth: "none" }}
        />
      </Box>
    </Box>
  );
}

/** The start of a text file, read by the route's loader with the rest of the screen (null: it could not be read). */
function TextView({ text }: { text: string | null }) {
  if (text === null) return <Text c="dimmed">{ru.viewer.noPreview}</Text>;
  return (
    <Code block style={{ flex: 1, overflow: "auto", whiteSpace: "pre-wrap" }}>
      {text}
    </Code>
  );
}

/** A subtitle track for the video (a signed WebVTT link); `revision` changes when its text does, to load it again. */
export interface SubtitleTrack {
  src: string;
  label: string;
  language: string;
  revision: number;
}

/**
 * Video or audio on a play link. A link lives minutes (docs/decisions/021-user-bytes.md), so a long
 * film outlives it: when loading fails the player asks once for a fresh link and resumes where it was
 * (and playing if it was). Another renewal is allowed only after the fresh link has loaded, so a file
 * that cannot play, or a right that is gone, does not loop.
 */
function Player({
  kind,
  src,
  name,
  renew,
  mediaRef,
  track,
}: {
  kind: "video" | "audio";
  src: string;
  name: string;
  renew?: () => Promise<string>;
  mediaRef?: RefObject<HTMLMediaElement | null>;
  track?: SubtitleTrack | null;
}) {
  const [current, setCurrent] = useState(src);
  const playing = useRef(false);
  const renewing = useRef(false);
  const resume = useRef<{ at: number; playing: boolean } | null>(null);

  const local = useRef<HTMLMediaElement | null>(null);
  const element = mediaRef ?? local;
  const recover = (el: HTMLMediaElement) => {
    if (!renew || renewing.current) return;
    renewing.current = true;
    resume.current = { at: el.currentTime, playing: playing.current };
    // A link renewed within the same second is the same URL: load it again rather than wait for a change.
    renew().then(
      (link) => (link === current ? el.load() : setCurrent(link)),
      (error) => console.error(error),
    );
  };
  const onError = (event: SyntheticEvent<HTMLMediaElement>) => recover(event.currentTarget);
  // The element starts loading when it is made, before React shows it: a link refused that early errors before
  // React listens (React drops events of what it has not shown yet), so the error is looked for once it is shown.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per source; recover reads the latest state through refs
  useEffect(() => {
    const el = element.current;
    if (el?.error) recover(el);
  }, [current]);
  const onLoaded = (event: SyntheticEvent<HTMLMediaElement>) => {
    const el = event.currentTarget;
    const r = resume.current;
    renewing.current = false;
    if (!r) return;
    resume.current = null;
    el.currentTime = r.at;
    if (r.playing) el.play().catch((error) => console.error(error));
  };
  const events = { onError, onLoadedMetadata: onLoaded, onPlay: () => (playing.current = true), onPause: () => (playing.current = false) };
  const ref = element as RefObject<HTMLVideoElement & HTMLAudioElement>;
  if (kind === "audio")
    return <audio ref={ref} src={current} controls preload="metadata" style={{ width: "100%" }} aria-label={name} {...events} />;
  return (
    <video ref={ref} src={current} controls preload="metadata" style={{ ...fill, background: "black" }} aria-label={name} {...events}>
      {/* Shown from the start; the viewer's «Субтитры» toggle switches it between showing and hidden. */}
      {track && (
        <track
          key={`${track.src}#${track.revision}`}
          kind="subtitles"
          src={track.src}
          label={track.label}
          srcLang={track.language || undefined}
          default
        />
      )}
    </video>
  );
}

/** Shows one variant by its play link: image with zoom, video, audio, PDF, plain text (`text`, read beforehand). */
export function MediaView(props: {
  src: string;
  mime: string;
  name: string;
  text?: string | null;
  renew?: () => Promise<string>;
  /** The video or audio element, for what works with the playhead (the timeline of time-coded values). */
  mediaRef?: RefObject<HTMLMediaElement | null>;
  /** The version's transcript as the video's subtitle track. */
  track?: SubtitleTrack | null;
  /** The image element, for drawings over the picture. */
  pictureRef?: RefObject<HTMLImageElement | null>;
  /** A PDF opened at a page (a click on a comment on it); null or absent: as the link opens it. */
  pdfAt?: PdfAt | null;
}) {
  const { src, mime, name, renew, mediaRef, track } = props;
  const kind = kindOf("asset", mime);
  if (kind === "image") return <ImageView src={src} name={name} pictureRef={props.pictureRef} />;
  if (kind === "video" || kind === "audio")
    return <Player kind={kind} src={src} name={name} renew={renew} mediaRef={mediaRef} track={track} />;
  if (kind === "pdf") {
    // A new frame for each opening: the browser's viewer reads `#page=` when it loads, not when the hash changes.
    const at = props.pdfAt ?? null;
    return <iframe key={at?.n ?? 0} src={pdfSrc(at?.src ?? src, at)} title={name} style={{ ...fill, border: 0, background: "white" }} />;
  }
  if (kind === "text") return <TextView text={props.text ?? null} />;
  return <Text c="dimmed">{ru.viewer.noPreview}</Text>;
}
