import { describe, expect, it } from "vitest";
import { shape as shapeSchema } from "../../shared/review/schemas";
import {
  arrowHead,
  MIN_DRAG,
  pathShape,
  pictureBox,
  rectFrom,
  shapeFromDrag,
  simplifyPath,
  storedShapes,
  toPixels,
  toUnit,
} from "../../app/components/viewer/drawing";
import { rangeOf } from "../../app/components/viewer/ReviewRange";
import { STOPPED, shuttle } from "../../app/components/viewer/transport";

/** Drawings on a frame in 0–1 of the picture, J/K/L and ranges (issue 38, docs/decisions/061, "Drawing and keys"). */

describe("the picture inside its element", () => {
  it("is letterboxed: a 16:9 frame in a 4:3 element has bars above and below", () => {
    const box = pictureBox({ left: 10, top: 20, width: 400, height: 300 }, 1920, 1080);
    expect(box.width).toBe(400);
    expect(box.height).toBe(225);
    expect(box.left).toBe(10);
    expect(box.top).toBe(20 + 37.5);
  });

  it("is pillarboxed: a 4:3 frame in a wide element has bars left and right", () => {
    expect(pictureBox({ left: 0, top: 0, width: 1000, height: 300 }, 320, 240)).toEqual({ left: 300, top: 0, width: 400, height: 300 });
  });

  it("has no size until the picture's own size is known", () => {
    expect(pictureBox({ left: 5, top: 5, width: 400, height: 300 }, 0, 0)).toEqual({ left: 5, top: 5, width: 0, height: 0 });
  });
});

describe("points in 0–1 of the picture", () => {
  const picture = pictureBox({ left: 0, top: 0, width: 400, height: 300 }, 1920, 1080); // top 37.5, 400×225

  it("count from the picture's corner, not the element's: the bar above is outside", () => {
    expect(toUnit(0, 37.5, picture)).toEqual([0, 0]);
    expect(toUnit(200, 37.5 + 112.5, picture)).toEqual([0.5, 0.5]);
    expect(toUnit(400, 262.5, picture)).toEqual([1, 1]);
  });

  it("hold onto the edge when the pointer leaves the picture (over a bar)", () => {
    expect(toUnit(-50, 10, picture)).toEqual([0, 0]);
    expect(toUnit(450, 299, picture)).toEqual([1, 1]);
  });

  it("land on the same pixels of the frame at another size of the element", () => {
    const p = toUnit(100, 37.5 + 45, picture);
    const bigger = pictureBox({ left: 0, top: 0, width: 1600, height: 900 }, 1920, 1080);
    expect(toPixels(p, bigger)).toEqual([400, 180]);
    // and back: the same 0–1 point
    expect(toUnit(bigger.left + 400, bigger.top + 180, bigger)).toEqual(p);
  });
});

describe("shapes from a drag", () => {
  it("a rectangle dragged in any direction is the same rectangle", () => {
    expect(rectFrom([0.6, 0.7], [0.2, 0.1])).toEqual({ x: 0.2, y: 0.1, w: 0.4, h: 0.6 });
    expect(shapeFromDrag("rect", [0.2, 0.1], [0.6, 0.7], "#ff3b30")).toEqual({
      type: "rect",
      x: 0.2,
      y: 0.1,
      w: 0.4,
      h: 0.6,
      color: "#ff3b30",
    });
    expect(shapeFromDrag("ellipse", [0.6, 0.7], [0.2, 0.1], "#ffffff")).toMatchObject({ type: "ellipse", x: 0.2, y: 0.1, w: 0.4, h: 0.6 });
  });

  it("an arrow keeps its direction: from the press to the release", () => {
    expect(shapeFromDrag("arrow", [0.9, 0.9], [0.1, 0.2], "#0a84ff")).toEqual({
      type: "arrow",
      points: [
        [0.9, 0.9],
        [0.1, 0.2],
      ],
      color: "#0a84ff",
    });
  });

  it("a slip of the hand makes no shape; a flat rectangle is none either", () => {
    expect(shapeFromDrag("rect", [0.5, 0.5], [0.5 + MIN_DRAG / 2, 0.5], "#ff3b30")).toBeNull();
    expect(shapeFromDrag("arrow", [0.5, 0.5], [0.5, 0.5], "#ff3b30")).toBeNull();
    expect(shapeFromDrag("rect", [0.1, 0.5], [0.9, 0.5], "#ff3b30")).toBeNull();
  });

  it("what the tools make passes the API's own schema", () => {
    const shapes = [
      shapeFromDrag("rect", [0, 0], [1, 1], "#ff3b30"),
      shapeFromDrag("ellipse", [0.1, 0.1], [0.3, 0.2], "#ffcc00"),
      shapeFromDrag("arrow", [0.1, 0.1], [0.3, 0.2], "#34c759"),
      pathShape(
        [
          [0.1, 0.1],
          [0.2, 0.2],
          [0.3, 0.25],
        ],
        "#ffffff",
      ),
    ];
    for (const s of shapes) expect(shapeSchema.safeParse(s).success).toBe(true);
  });
});

describe("a freehand line", () => {
  it("drops points closer than a step to the last one, keeping where the line ends", () => {
    const kept = simplifyPath(
      [
        [0, 0],
        [0.0005, 0],
        [0.001, 0],
        [0.01, 0],
        [0.0101, 0],
      ],
      0.002,
    );
    expect(kept).toEqual([
      [0, 0],
      [0.0101, 0],
    ]);
  });

  it("fits the API's limit of points, from the first to the last", () => {
    const many = Array.from({ length: 10_000 }, (_, i) => [i / 10_000, 0.5] as [number, number]);
    const kept = simplifyPath(many, 0, 2000);
    expect(kept.length).toBeLessThanOrEqual(2000);
    expect(kept[0]).toEqual([0, 0.5]);
    expect(kept[kept.length - 1]).toEqual([9999 / 10_000, 0.5]);
  });

  it("a dot is no line", () => {
    expect(pathShape([[0.5, 0.5]], "#ff3b30")).toBeNull();
    expect(
      pathShape(
        [
          [0.5, 0.5],
          [0.5001, 0.5],
        ],
        "#ff3b30",
      ),
    ).toBeNull();
  });
});

describe("an arrow's head", () => {
  it("has its barbs behind the tip at ±30° of the shaft, the same length", () => {
    const [a, b] = arrowHead([0, 0], [100, 0], 10);
    expect(a[0]).toBeCloseTo(100 - 10 * Math.cos(Math.PI / 6));
    expect(a[1]).toBeCloseTo(-5);
    expect(b[0]).toBeCloseTo(100 - 10 * Math.cos(Math.PI / 6));
    expect(b[1]).toBeCloseTo(5);
  });
});

describe("stored shapes", () => {
  it("keeps the well-formed ones of what the list gives", () => {
    const good = [
      { type: "rect", x: 0.1, y: 0.1, w: 0.2, h: 0.2, color: "#ff3b30" },
      { type: "text", x: 0.1, y: 0.1, text: "здесь", color: "#ffffff" },
      {
        type: "path",
        points: [
          [0, 0],
          [1, 1],
        ],
        color: "#ffffff",
      },
    ];
    const bad = [
      { type: "rect", x: 0.1, color: "#ff3b30" },
      { type: "star", color: "#ff3b30" },
      { type: "arrow", points: [[0, 0]], color: "#fff" },
    ];
    expect(storedShapes([...good, ...bad])).toEqual(good);
  });
});

describe("J, K and L", () => {
  it("L plays forwards, L again faster, up to 8×; K stops", () => {
    let s = shuttle(STOPPED, "L");
    expect(s).toEqual({ direction: 1, speed: 1 });
    s = shuttle(s, "L");
    expect(s).toEqual({ direction: 1, speed: 2 });
    s = shuttle(shuttle(shuttle(s, "L"), "L"), "L");
    expect(s).toEqual({ direction: 1, speed: 8 });
    expect(shuttle(s, "K")).toEqual(STOPPED);
  });

  it("J plays backwards and faster the same way; the other key turns round at 1×", () => {
    const back = shuttle(shuttle(STOPPED, "J"), "J");
    expect(back).toEqual({ direction: -1, speed: 2 });
    expect(shuttle(back, "L")).toEqual({ direction: 1, speed: 1 });
    expect(shuttle({ direction: 1, speed: 4 }, "J")).toEqual({ direction: -1, speed: 1 });
  });
});

describe("a comment's range from the marks", () => {
  const pal = { fps_num: 25, fps_den: 1 };
  it("starts at the shown frame unless a start is marked, and ends at the marked end", () => {
    expect(rangeOf({ in: null, out: null }, 2.2, pal)).toEqual({ at: { frame: 55, fps_num: 25, fps_den: 1 } });
    expect(rangeOf({ in: null, out: 3 }, 1, pal)).toEqual({
      at: { frame: 25, fps_num: 25, fps_den: 1 },
      until: { frame: 75, fps_num: 25, fps_den: 1 },
    });
    expect(rangeOf({ in: 0.4, out: 3 }, 2, pal).at.frame).toBe(10);
  });

  it("swaps marks made the wrong way round; an end on the start's frame is no range", () => {
    expect(rangeOf({ in: 3, out: 1 }, 0, pal)).toEqual({
      at: { frame: 25, fps_num: 25, fps_den: 1 },
      until: { frame: 75, fps_num: 25, fps_den: 1 },
    });
    expect(rangeOf({ in: null, out: 2.21 }, 2.2, pal)).toEqual({ at: { frame: 55, fps_num: 25, fps_den: 1 } });
  });
});
