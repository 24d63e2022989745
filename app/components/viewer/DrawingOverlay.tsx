import { ActionIcon, Button, ColorSwatch, Group, Stack, Text, TextInput } from "@mantine/core";
import { type RefObject, useEffect, useState } from "react";
import { createPortal } from "react-dom";
import { ru } from "../../i18n/ru";
import {
  type Box,
  COLORS,
  arrowHead,
  pathShape,
  type Point,
  pictureBox,
  polyline,
  type Shape,
  shapeFromDrag,
  type Tool,
  toPixels,
  toUnit,
} from "./drawing";

const t = ru.review.draw;

/** What is being drawn for the next comment: the tool (null: the player's own controls), colour, shapes so far. */
export interface Drawing {
  tool: Tool | null;
  setTool: (tool: Tool | null) => void;
  color: string;
  setColor: (color: string) => void;
  /** The text the text tool places with a click. */
  text: string;
  setText: (text: string) => void;
  shapes: Shape[];
  add: (shape: Shape) => void;
  undo: () => void;
  clear: () => void;
}

export function useDrawing(): Drawing {
  const [tool, setTool] = useState<Tool | null>(null);
  const [color, setColor] = useState<string>(COLORS[0]);
  const [text, setText] = useState("");
  const [shapes, setShapes] = useState<Shape[]>([]);
  return {
    tool,
    setTool,
    color,
    setColor,
    text,
    setText,
    shapes,
    add: (shape) => setShapes((s) => [...s, shape]),
    undo: () => setShapes((s) => s.slice(0, -1)),
    clear: () => setShapes([]),
  };
}

/**
 * The comment whose drawing is shown over the frame: set by a click on it, gone when the player plays (the drawing
 * belongs to the frame it was made on) or another comment is chosen.
 */
export function useShowing<T>(media: RefObject<HTMLMediaElement | null> | null): [T | null, (c: T | null) => void] {
  const [showing, setShowing] = useState<T | null>(null);
  useEffect(() => {
    const el = media?.current;
    if (!el) return;
    const hide = () => setShowing(null);
    el.addEventListener("play", hide);
    return () => el.removeEventListener("play", hide);
  }, [media]);
  return [showing, setShowing];
}

const TOOLS: Tool[] = ["rect", "ellipse", "arrow", "path", "text"];

/** The drawing tools in the review panel: a tool (pressed again: off), a colour, the text for the text tool, undo and clear. */
export function DrawingTools({ drawing, onStart }: { drawing: Drawing; onStart?: () => void }) {
  return (
    <Stack gap={4} role="group" aria-label={t.title}>
      <Group gap={4} wrap="wrap">
        {TOOLS.map((tool) => (
          <Button
            key={tool}
            size="compact-xs"
            variant={drawing.tool === tool ? "filled" : "default"}
            aria-pressed={drawing.tool === tool}
            onClick={() => {
              const next = drawing.tool === tool ? null : tool;
              if (next) onStart?.();
              drawing.setTool(next);
            }}
          >
            {t.tools[tool]}
          </Button>
        ))}
      </Group>
      <Group gap={6} wrap="wrap">
        {COLORS.map((c) => (
          <ActionIcon
            key={c}
            variant="transparent"
            size="sm"
            aria-label={t.color(c)}
            aria-pressed={drawing.color === c}
            onClick={() => drawing.setColor(c)}
          >
            <ColorSwatch color={c} size={drawing.color === c ? 20 : 14} withShadow={drawing.color === c} />
          </ActionIcon>
        ))}
        {drawing.shapes.length > 0 && (
          <>
            <Text size="xs" c="dimmed" data-testid="draw-count">
              {t.count(drawing.shapes.length)}
            </Text>
            <Button size="compact-xs" variant="subtle" onClick={drawing.undo}>
              {t.undo}
            </Button>
            <Button size="compact-xs" variant="subtle" color="red" onClick={drawing.clear}>
              {t.clear}
            </Button>
          </>
        )}
      </Group>
      {drawing.tool === "text" && (
        <TextInput
          size="xs"
          aria-label={t.textLabel}
          placeholder={t.textHint}
          value={drawing.text}
          onChange={(e) => drawing.setText(e.currentTarget.value)}
        />
      )}
    </Stack>
  );
}

interface Region {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The element's box on the screen, and the picture's inside it (video: letterboxed to its own aspect). */
function measure(el: HTMLElement): { clip: Box; picture: Box } | null {
  const r = el.getBoundingClientRect();
  const element = { left: r.left, top: r.top, width: r.width, height: r.height };
  const natural =
    el instanceof HTMLVideoElement
      ? [el.videoWidth, el.videoHeight]
      : el instanceof HTMLImageElement
        ? [el.naturalWidth, el.naturalHeight]
        : [0, 0];
  const picture = pictureBox(element, natural[0], natural[1]);
  if (picture.width === 0) return null;
  // A zoomed image scrolls inside its container: the drawing is cut where the picture is.
  const outer = el instanceof HTMLImageElement && el.parentElement ? el.parentElement.getBoundingClientRect() : r;
  const left = Math.max(outer.left, picture.left);
  const top = Math.max(outer.top, picture.top);
  const clip = {
    left,
    top,
    width: Math.max(0, Math.min(outer.right, picture.left + picture.width) - left),
    height: Math.max(0, Math.min(outer.bottom, picture.top + picture.height) - top),
  };
  return { clip, picture };
}

/** Follows the element's place on the screen: its size, the window's, any scroll, the picture's size once known. */
function usePlace(target: RefObject<HTMLElement | null> | null, active: boolean) {
  const [place, setPlace] = useState<ReturnType<typeof measure>>(null);
  useEffect(() => {
    const el = target?.current;
    if (!el || !active) {
      setPlace(null);
      return;
    }
    const update = () => setPlace(measure(el));
    update();
    const resize = new ResizeObserver(update);
    resize.observe(el);
    if (el.parentElement) resize.observe(el.parentElement);
    window.addEventListener("resize", update);
    window.addEventListener("scroll", update, true);
    const loads = ["loadedmetadata", "load", "resize"] as const;
    for (const e of loads) el.addEventListener(e, update);
    return () => {
      resize.disconnect();
      window.removeEventListener("resize", update);
      window.removeEventListener("scroll", update, true);
      for (const e of loads) el.removeEventListener(e, update);
    };
  }, [target, active]);
  return place;
}

/** One shape in pixels of a picture of `size`. */
function ShapeView({ shape, size }: { shape: Shape; size: { width: number; height: number } }) {
  const stroke = Math.max(2, Math.min(size.width, size.height) / 150);
  const common = {
    stroke: shape.color,
    strokeWidth: stroke,
    fill: "none",
    strokeLinecap: "round" as const,
    strokeLinejoin: "round" as const,
    "data-testid": "drawn-shape",
    "data-type": shape.type,
  };
  if ((shape.type === "rect" || shape.type === "ellipse") && shape.x !== undefined && shape.y !== undefined) {
    const [x, y] = toPixels([shape.x, shape.y], size);
    const [w, h] = toPixels([shape.w ?? 0, shape.h ?? 0], size);
    return shape.type === "rect" ? (
      <rect x={x} y={y} width={w} height={h} {...common} />
    ) : (
      <ellipse cx={x + w / 2} cy={y + h / 2} rx={w / 2} ry={h / 2} {...common} />
    );
  }
  if ((shape.type === "arrow" || shape.type === "path") && shape.points && shape.points.length >= 2) {
    const pts = shape.points.map((p) => toPixels(p as Point, size));
    if (shape.type === "path") return <path d={polyline(pts)} {...common} />;
    const [from, to] = [pts[0], pts[pts.length - 1]];
    const [b1, b2] = arrowHead(from, to, stroke * 5);
    return <path d={`${polyline([from, to])} ${polyline([b1, to, b2])}`} {...common} />;
  }
  if (shape.type === "text" && shape.x !== undefined && shape.y !== undefined) {
    const [x, y] = toPixels([shape.x, shape.y], size);
    return (
      <text
        x={x}
        y={y}
        fill={shape.color}
        fontSize={Math.max(12, size.height / 22)}
        dominantBaseline="hanging"
        paintOrder="stroke"
        stroke="#000"
        strokeWidth={stroke}
        data-testid="drawn-shape"
        data-type="text"
      >
        {shape.text}
      </text>
    );
  }
  return null;
}

type Drag = { tool: Tool; a: Point; b: Point; points: Point[] };

/**
 * An SVG over the picture of a video or image (not over the element: the black bars of a letterboxed video are
 * outside it), in the picture's 0–1 coordinates. It shows `shapes` and `region`; with a tool chosen it takes the
 * pointer and adds what is drawn through `onAdd`, otherwise the pointer goes through to the player's controls.
 * Placed on the page's top layer at the element's place, so the panel that owns it need not wrap the player.
 */
export function DrawingOverlay({
  target,
  shapes,
  region,
  tool,
  color,
  text,
  onAdd,
}: {
  target: RefObject<HTMLElement | null> | null;
  shapes: Shape[];
  region?: Region | null;
  tool: Tool | null;
  color: string;
  text: string;
  onAdd: (shape: Shape) => void;
}) {
  const visible = shapes.length > 0 || !!region || tool !== null;
  const place = usePlace(target, visible);
  const [drag, setDrag] = useState<Drag | null>(null);
  if (!place || typeof document === "undefined") return null;
  const { clip, picture } = place;
  const size = { width: picture.width, height: picture.height };
  const at = (e: React.PointerEvent) => toUnit(e.clientX, e.clientY, picture);

  const finish = (d: Drag) => {
    const shape = d.tool === "path" ? pathShape(d.points, color) : d.tool === "text" ? null : shapeFromDrag(d.tool, d.a, d.b, color);
    if (shape) onAdd(shape);
  };
  const preview: Shape | null = drag
    ? drag.tool === "path"
      ? drag.points.length >= 2
        ? { type: "path", points: drag.points, color }
        : null
      : drag.tool === "text"
        ? null
        : shapeFromDrag(drag.tool, drag.a, drag.b, color)
    : null;

  return createPortal(
    <div
      data-testid="drawing-overlay"
      style={{
        position: "fixed",
        left: clip.left,
        top: clip.top,
        width: clip.width,
        height: clip.height,
        overflow: "hidden",
        pointerEvents: "none",
        zIndex: 50,
      }}
    >
      <svg
        role="img"
        aria-label={tool ? t.canvas : t.shown}
        width={picture.width}
        height={picture.height}
        style={{
          position: "absolute",
          left: picture.left - clip.left,
          top: picture.top - clip.top,
          pointerEvents: tool ? "auto" : "none",
          cursor: tool ? (tool === "text" ? "text" : "crosshair") : undefined,
          touchAction: "none",
        }}
        onPointerDown={(e) => {
          if (!tool || e.button !== 0) return;
          e.preventDefault();
          const p = at(e);
          if (tool === "text") {
            if (text.trim()) onAdd({ type: "text", x: p[0], y: p[1], text: text.trim(), color });
            return;
          }
          e.currentTarget.setPointerCapture(e.pointerId);
          setDrag({ tool, a: p, b: p, points: [p] });
        }}
        onPointerMove={(e) => {
          if (!drag) return;
          const p = at(e);
          setDrag({ ...drag, b: p, points: drag.tool === "path" ? [...drag.points, p] : drag.points });
        }}
        onPointerUp={(e) => {
          if (!drag) return;
          const p = at(e);
          const done = { ...drag, b: p, points: drag.tool === "path" ? [...drag.points, p] : drag.points };
          setDrag(null);
          finish(done);
        }}
        onPointerCancel={() => setDrag(null)}
      >
        {region && (
          <rect
            x={region.x * size.width}
            y={region.y * size.height}
            width={region.w * size.width}
            height={region.h * size.height}
            fill="none"
            stroke="#ffcc00"
            strokeWidth={2}
            strokeDasharray="6 4"
            data-testid="drawn-region"
          />
        )}
        {shapes.map((s, i) => (
          // Shapes have no ids of their own; their order in the comment is their identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <ShapeView key={i} shape={s} size={size} />
        ))}
        {preview && <ShapeView shape={preview} size={size} />}
      </svg>
    </div>,
    document.body,
  );
}
