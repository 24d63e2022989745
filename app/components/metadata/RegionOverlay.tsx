import { Box } from "@mantine/core";
import { type RefObject, useEffect, useState } from "react";
import type { FieldTemplate, FieldValue } from "../../lib/metadata-api";

interface Region {
  x: number;
  y: number;
  w: number;
  h: number;
}
const isRegion = (v: unknown): v is Region =>
  typeof v === "object" && v !== null && ["x", "y", "w", "h"].every((k) => typeof (v as Record<string, unknown>)[k] === "number");

/** Where the picture is drawn inside the video element (letterboxed to its own aspect), relative to `box`. */
function pictureRect(video: HTMLVideoElement, box: HTMLElement) {
  const v = video.getBoundingClientRect();
  const b = box.getBoundingClientRect();
  const scale = video.videoWidth && video.videoHeight ? Math.min(v.width / video.videoWidth, v.height / video.videoHeight) : 0;
  const width = video.videoWidth * scale;
  const height = video.videoHeight * scale;
  return { left: v.left - b.left + (v.width - width) / 2, top: v.top - b.top + (v.height - height) / 2, width, height };
}

/**
 * The region values (a rectangle in 0..1 of the frame) whose time code covers the playhead, drawn over the picture.
 * `box` is the positioned element the overlay is placed in; the rectangles follow playback, seeks and resizes.
 */
export function RegionOverlay(props: {
  media: RefObject<HTMLMediaElement | null>;
  box: RefObject<HTMLElement | null>;
  templates: FieldTemplate[];
  values: FieldValue[];
}) {
  const { media, box, templates, values } = props;
  const [frame, setFrame] = useState<{ at: number; rect: ReturnType<typeof pictureRect> } | null>(null);
  const regionDefs = new Set(templates.filter((t) => t.field_type === "region").map((t) => t.field_def_id));
  const regions = values.filter((v) => regionDefs.has(v.def_id) && v.pts && isRegion(v.field_data));

  // Follows the player (subscribing to its events and to resizes; nothing is loaded here).
  useEffect(() => {
    const el = media.current;
    const outer = box.current;
    if (!(el instanceof HTMLVideoElement) || !outer) return;
    const update = () => setFrame({ at: el.currentTime, rect: pictureRect(el, outer) });
    const events = ["timeupdate", "seeked", "loadedmetadata"] as const;
    for (const e of events) el.addEventListener(e, update);
    const resize = new ResizeObserver(update);
    resize.observe(el);
    return () => {
      for (const e of events) el.removeEventListener(e, update);
      resize.disconnect();
    };
  }, [media, box]);

  if (!frame || frame.rect.width === 0) return null;
  const nameOf = (id: string) => templates.find((t) => t.field_def_id === id)?.field_def_name ?? "";
  return (
    <>
      {regions
        .filter((v) => v.pts && v.pts[0] <= frame.at && frame.at <= v.pts[1])
        .map((v) => {
          const r = v.field_data as Region;
          return (
            <Box
              key={v.field_id}
              data-testid="region"
              aria-label={nameOf(v.def_id)}
              pos="absolute"
              style={{
                left: frame.rect.left + r.x * frame.rect.width,
                top: frame.rect.top + r.y * frame.rect.height,
                width: r.w * frame.rect.width,
                height: r.h * frame.rect.height,
                border: "2px solid var(--mantine-color-yellow-5)",
                pointerEvents: "none",
              }}
            />
          );
        })}
    </>
  );
}
