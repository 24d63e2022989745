import { Badge, Box, Button, Group, SegmentedControl, Select, Stack, Text, Title } from "@mantine/core";
import { useLocation, useNavigate } from "@remix-run/react";
import { type PointerEvent as ReactPointerEvent, type RefObject, useEffect, useRef, useState } from "react";
import { ru } from "../../i18n/ru";
import type { CompareData, CompareSide } from "./compare-api";
import { MediaView } from "./MediaView";
import { linkMedia, stepTarget } from "./media-sync";
import { playVariant } from "./viewer-api";
import { BackLink } from "../ui/BackLink";

const t = ru.review.compare;

const fpsText = (side: CompareSide) =>
  side.rate ? t.rate(String(Math.round((side.rate.fps_num / side.rate.fps_den) * 1000) / 1000).replace(".", ",")) : null;

/** The side's picture: its play link, else the preview image (the asset's, for the latest version only). */
const srcOf = (side: CompareSide) => side.link ?? side.preview;

/**
 * The wipe: the right version in full, the left one over it up to a divider dragged across (or moved with the arrow
 * keys on its handle). Both pictures fit the same box, so the same point of each lies at the same place.
 */
function ImageWipe({ left, right, name }: { left: string; right: string; name: string }) {
  const [pos, setPos] = useState(50);
  const box = useRef<HTMLDivElement | null>(null);
  const dragging = useRef(false);
  const follow = (e: ReactPointerEvent) => {
    const r = box.current?.getBoundingClientRect();
    if (!r || r.width === 0) return;
    setPos(Math.min(100, Math.max(0, ((e.clientX - r.left) / r.width) * 100)));
  };
  const fit = { position: "absolute", inset: 0, width: "100%", height: "100%", objectFit: "contain" } as const;
  return (
    <Box
      ref={box}
      data-testid="compare-wipe"
      style={{ position: "relative", flex: 1, minHeight: 240, cursor: "ew-resize", touchAction: "none", userSelect: "none" }}
      onPointerDown={(e) => {
        dragging.current = true;
        e.currentTarget.setPointerCapture(e.pointerId);
        follow(e);
      }}
      onPointerMove={(e) => dragging.current && follow(e)}
      onPointerUp={() => (dragging.current = false)}
      onPointerCancel={() => (dragging.current = false)}
    >
      <img src={right} alt={`${name} (${t.right})`} style={fit} draggable={false} />
      <img
        src={left}
        alt={`${name} (${t.left})`}
        data-testid="compare-wipe-left"
        style={{ ...fit, clipPath: `inset(0 ${100 - pos}% 0 0)` }}
        draggable={false}
      />
      <Box
        role="slider"
        tabIndex={0}
        aria-label={t.wipe}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(pos)}
        aria-orientation="horizontal"
        onKeyDown={(e) => {
          const by = e.key === "ArrowLeft" ? -5 : e.key === "ArrowRight" ? 5 : e.key === "Home" ? -100 : e.key === "End" ? 100 : 0;
          if (!by) return;
          e.preventDefault();
          setPos((p) => Math.min(100, Math.max(0, p + by)));
        }}
        style={{
          position: "absolute",
          top: 0,
          bottom: 0,
          left: `${pos}%`,
          width: 4,
          marginLeft: -2,
          background: "var(--mantine-color-yellow-5)",
          boxShadow: "0 0 3px rgba(0,0,0,.6)",
        }}
      />
    </Box>
  );
}

/** Two players whose play, pause and seeking drive each other (./media-sync.ts), with shared controls. */
function SyncedPlayers({ sides, name }: { sides: [CompareSide, CompareSide]; name: string }) {
  const leftRef = useRef<HTMLMediaElement | null>(null);
  const rightRef = useRef<HTMLMediaElement | null>(null);
  const refs = [leftRef, rightRef] as const;
  const [playing, setPlaying] = useState(false);
  const [left, right] = sides;
  // Listeners on the two elements; another version chosen remounts this (its key), so the elements are linked anew.
  useEffect(() => {
    const [a, b] = [leftRef.current, rightRef.current];
    if (!a || !b) return;
    const unlink = linkMedia(a, b, [left.rate, right.rate]);
    const update = () => setPlaying(!a.paused || !b.paused);
    for (const el of [a, b]) for (const k of ["play", "pause", "ended"]) el.addEventListener(k, update);
    return () => {
      unlink();
      for (const el of [a, b]) for (const k of ["play", "pause", "ended"]) el.removeEventListener(k, update);
    };
  }, [left.rate, right.rate]);
  const lead = () => leftRef.current;
  const toggle = () => {
    const a = lead();
    if (!a) return;
    if (a.paused) a.play().catch((error) => console.error(error));
    else a.pause();
  };
  const step = (by: 1 | -1) => {
    const a = lead();
    if (!a) return;
    a.pause();
    a.currentTime = stepTarget(a.currentTime, left.rate, by);
  };
  return (
    <Stack gap="xs" style={{ flex: 1, minHeight: 0 }}>
      <Group gap="xs">
        <Button size="xs" onClick={toggle} data-testid="compare-play">
          {playing ? t.pause : t.play}
        </Button>
        <Button size="xs" variant="default" onClick={() => step(-1)}>
          {t.frameBack}
        </Button>
        <Button size="xs" variant="default" onClick={() => step(1)}>
          {t.frameForward}
        </Button>
        <Text size="xs" c="dimmed">
          {t.synced}
        </Text>
      </Group>
      <SidePanes sides={sides} name={name} mediaRefs={refs} />
    </Stack>
  );
}

type MediaRef = RefObject<HTMLMediaElement | null>;

/** The two versions next to each other, left then right; the synced players hand in their elements' refs. */
function SidePanes({
  sides,
  name,
  mediaRefs,
}: {
  sides: [CompareSide, CompareSide];
  name: string;
  mediaRefs?: readonly [MediaRef, MediaRef];
}) {
  return (
    <Group gap="sm" align="stretch" wrap="nowrap" style={{ flex: 1, minHeight: 0 }}>
      {sides.map((side, i) => (
        <SidePane
          key={side.version}
          side={side}
          name={name}
          label={i === 0 ? t.left : t.right}
          mediaRef={mediaRefs?.[i]}
          testId={`compare-${i ? "right" : "left"}`}
        />
      ))}
    </Group>
  );
}

function SidePane({
  side,
  name,
  label,
  mediaRef,
  testId,
}: {
  side: CompareSide;
  name: string;
  label: string;
  mediaRef?: MediaRef;
  testId: string;
}) {
  const src = srcOf(side);
  const fps = fpsText(side);
  return (
    <Stack gap={4} style={{ flex: 1, minWidth: 0, minHeight: 0 }} data-testid={testId}>
      <Group gap="xs">
        <Badge variant="light">{`${label}: ${t.version(side.version)}`}</Badge>
        {fps && (
          <Text size="xs" c="dimmed">
            {fps}
          </Text>
        )}
      </Group>
      {src && side.shown ? (
        <MediaView
          src={src}
          mime={side.shown.mime_type || side.mime}
          name={`${name} — ${t.version(side.version)}`}
          text={side.text}
          mediaRef={mediaRef}
          // A play link lives minutes: a long look renews it as the viewer does.
          renew={async () => (await playVariant(side.shown!.variant_id)).link}
        />
      ) : src ? (
        <MediaView src={src} mime="image/jpeg" name={`${name} — ${t.version(side.version)}`} />
      ) : (
        <Text c="dimmed">{t.nothing}</Text>
      )}
    </Stack>
  );
}

/** /mam/{group}/asset/{id}/compare?a=&b=: two versions side by side; videos in sync, images with a wipe. */
export function CompareView({ data }: { data: CompareData }) {
  const { asset, groupId, versions, sides } = data;
  const navigate = useNavigate();
  const location = useLocation();
  const [mode, setMode] = useState<"wipe" | "side">("wipe");
  const viewer = `/mam/${groupId}/asset/${asset.asset_id}`;
  const choose = (key: "a" | "b", value: string | null) => {
    if (!value) return;
    const params = new URLSearchParams(location.search);
    if (sides) {
      params.set("a", String(sides[0].version));
      params.set("b", String(sides[1].version));
    }
    params.set(key, value);
    navigate(`${location.pathname}?${params}`);
  };
  const options = versions.map((n) => ({ value: String(n), label: t.version(n) }));
  const timed = sides?.every((s) => s.link && (s.kind === "video" || s.kind === "audio"));
  const images = sides?.every((s) => s.kind === "image" && srcOf(s));
  return (
    <Stack gap="xs" style={{ flex: 1, minHeight: 0 }} data-testid="compare">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <BackLink to={viewer} label={t.back} />
          <Title order={4} lineClamp={1}>
            {t.title}: {asset.name}
          </Title>
        </Group>
        {sides && (
          <Group gap="xs">
            {(["a", "b"] as const).map((side, i) => (
              <Select
                key={side}
                size="xs"
                w={130}
                aria-label={side === "a" ? t.left : t.right}
                data={options}
                value={String(sides[i].version)}
                onChange={(v) => choose(side, v)}
                allowDeselect={false}
              />
            ))}
            {images && (
              <SegmentedControl
                size="xs"
                aria-label={t.mode}
                value={mode}
                onChange={(v) => setMode(v as "wipe" | "side")}
                data={[
                  { value: "wipe", label: t.modes.wipe },
                  { value: "side", label: t.modes.side },
                ]}
              />
            )}
          </Group>
        )}
      </Group>
      {!sides ? (
        <Text c="dimmed">{t.needTwo}</Text>
      ) : timed ? (
        <SyncedPlayers key={`${sides[0].link}|${sides[1].link}`} sides={sides} name={asset.name} />
      ) : images && mode === "wipe" ? (
        <Stack gap={4} style={{ flex: 1, minHeight: 0 }}>
          <Group justify="space-between">
            <Badge variant="light">{`${t.left}: ${t.version(sides[0].version)}`}</Badge>
            <Badge variant="light">{`${t.right}: ${t.version(sides[1].version)}`}</Badge>
          </Group>
          <ImageWipe left={srcOf(sides[0])!} right={srcOf(sides[1])!} name={asset.name} />
        </Stack>
      ) : (
        <SidePanes sides={sides} name={asset.name} />
      )}
    </Stack>
  );
}
