import type { Shape } from "../../../shared/review/schemas";
import { MAX_POINTS } from "../../../shared/review/schemas";

/**
 * The geometry of drawings on a frame or an image (issue 38, docs/decisions/061-review-and-approval.md, "Drawing
 * and keys"): shapes are kept in 0–1 coordinates of the picture, not of the element showing it, so a drawing
 * lands on the same spot of the frame at any window size and around the black bars of a letterboxed video.
 * Plain functions, no DOM: the overlay measures, these compute.
 */

export type { Shape };
export type Tool = Shape["type"];
export type Point = [number, number];

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Where a picture of `natural` size is drawn inside an element box that scales it to fit and centres it
 * (a video element's default, object-fit: contain; an image sized by max-width/max-height is the same box).
 * Zero size when the picture's own size is not known yet.
 */
export function pictureBox(element: Box, naturalWidth: number, naturalHeight: number): Box {
  if (!(naturalWidth > 0 && naturalHeight > 0 && element.width > 0 && element.height > 0))
    return { left: element.left, top: element.top, width: 0, height: 0 };
  const scale = Math.min(element.width / naturalWidth, element.height / naturalHeight);
  const width = naturalWidth * scale;
  const height = naturalHeight * scale;
  return { left: element.left + (element.width - width) / 2, top: element.top + (element.height - height) / 2, width, height };
}

/** Six decimals: far finer than any frame's pixels, and a stored drawing stays short. */
const round = (n: number) => Math.round(n * 1e6) / 1e6;
const clamp01 = (n: number) => Math.min(1, Math.max(0, n));

/** A point on the screen as 0–1 of the picture, held onto the picture's edge when the pointer leaves it. */
export function toUnit(clientX: number, clientY: number, picture: Box): Point {
  if (picture.width <= 0 || picture.height <= 0) return [0, 0];
  return [round(clamp01((clientX - picture.left) / picture.width)), round(clamp01((clientY - picture.top) / picture.height))];
}

/** A 0–1 point back in pixels of a box (the overlay's own origin is the picture's corner: left/top 0). */
export const toPixels = ([x, y]: Point, size: { width: number; height: number }): Point => [x * size.width, y * size.height];

/** The rectangle spanned by two corners in any order. */
export function rectFrom(a: Point, b: Point) {
  const x = Math.min(a[0], b[0]);
  const y = Math.min(a[1], b[1]);
  return { x: round(x), y: round(y), w: round(Math.abs(b[0] - a[0])), h: round(Math.abs(b[1] - a[1])) };
}

/** A drag shorter than this (0–1 of the picture's larger side) is a slip of the hand, not a shape. */
export const MIN_DRAG = 0.005;

/** The shape a drag from `a` to `b` makes with a tool (a rect, an ellipse in that rectangle, an arrow from a to b); null for a slip. */
export function shapeFromDrag(tool: "rect" | "ellipse" | "arrow", a: Point, b: Point, color: string): Shape | null {
  if (Math.hypot(b[0] - a[0], b[1] - a[1]) < MIN_DRAG) return null;
  if (tool === "arrow") return { type: "arrow", points: [a, b], color };
  const r = rectFrom(a, b);
  if (r.w === 0 || r.h === 0) return null;
  return { type: tool, ...r, color };
}

/**
 * A freehand line as drawn: points closer than `step` to the last kept one are dropped (a pointer reports many per
 * pixel), and a very long line keeps every n-th point so it fits the API's limit, with the last point kept.
 */
export function simplifyPath(points: Point[], step = 0.002, max = MAX_POINTS): Point[] {
  const kept: Point[] = [];
  for (const p of points) {
    const last = kept[kept.length - 1];
    if (!last || Math.hypot(p[0] - last[0], p[1] - last[1]) >= step) kept.push(p);
  }
  const end = points[points.length - 1];
  if (end && kept.length > 1 && kept[kept.length - 1] !== end) kept[kept.length - 1] = end;
  if (kept.length <= max) return kept;
  const every = Math.ceil(kept.length / (max - 1));
  const thinned = kept.filter((_, i) => i % every === 0);
  thinned.push(kept[kept.length - 1]);
  return thinned;
}

/** A freehand line, or null when it is a dot (the API needs two points). */
export function pathShape(points: Point[], color: string): Shape | null {
  const kept = simplifyPath(points);
  return kept.length >= 2 ? { type: "path", points: kept, color } : null;
}

/**
 * The head of an arrow drawn in pixels: the two barbs' ends beside the tip, `size` pixels back along the shaft at
 * ±30°; computed in pixels so the head keeps its angle on a frame that is not square.
 */
export function arrowHead(from: Point, to: Point, size: number): [Point, Point] {
  const angle = Math.atan2(to[1] - from[1], to[0] - from[0]);
  const barb = (turn: number): Point => [to[0] - size * Math.cos(angle + turn), to[1] - size * Math.sin(angle + turn)];
  return [barb(Math.PI / 6), barb(-Math.PI / 6)];
}

/** An SVG path's `d` through pixel points. */
export const polyline = (points: Point[]) => points.map(([x, y], i) => `${i ? "L" : "M"}${x.toFixed(1)} ${y.toFixed(1)}`).join(" ");

/** The drawing colours on offer: readable over most footage, the first the default (the approval bar's yellow would hide on skin). */
export const COLORS = ["#ff3b30", "#ffcc00", "#34c759", "#0a84ff", "#ffffff"] as const;

/** The shapes a stored comment carries, kept only when they are well-formed (the list gives them as plain records). */
export function storedShapes(shapes: Record<string, unknown>[]): Shape[] {
  const num = (v: unknown) => typeof v === "number" && Number.isFinite(v);
  return shapes.filter((s): s is Shape => {
    if (typeof s.color !== "string") return false;
    if (s.type === "rect" || s.type === "ellipse") return [s.x, s.y, s.w, s.h].every(num);
    if (s.type === "arrow" || s.type === "path")
      return Array.isArray(s.points) && s.points.length >= 2 && s.points.every((p) => Array.isArray(p) && num(p[0]) && num(p[1]));
    if (s.type === "text") return typeof s.text === "string" && num(s.x) && num(s.y);
    return false;
  });
}
