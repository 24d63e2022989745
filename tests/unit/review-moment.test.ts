import { describe, expect, it } from "vitest";
import { momentAt, timecodeAt } from "../../app/components/viewer/review-api";
import { secondsOf } from "../../shared/review/timecode";

/** The viewer's «Комментарий» at the shown frame (issue 38): the frame a paused player shows at its currentTime. */

const pal = { fps_num: 25, fps_den: 1 };
const ntsc = { fps_num: 30000, fps_den: 1001 };

describe("the frame a comment is made at", () => {
  it("is the frame whose display has begun, not the nearest frame start", () => {
    // 2.23 s at 25 fps lies in frame 55 (2.20–2.24): the player shows 55, though 56 starts nearer.
    expect(momentAt(2.23, pal)).toEqual({ frame: 55, fps_num: 25, fps_den: 1 });
    expect(momentAt(2.2, pal)).toEqual({ frame: 55, fps_num: 25, fps_den: 1 });
    expect(timecodeAt(2.2, pal)).toBe("00:00:02:05");
  });

  it("reads a frame's exact start back as that frame at 29.97, where the seconds are not exact in floating point", () => {
    for (let frame = 0; frame < 200_000; frame += 997) {
      const seconds = secondsOf(frame, { num: ntsc.fps_num, den: ntsc.fps_den });
      expect(momentAt(seconds, ntsc).frame).toBe(frame);
    }
    expect(timecodeAt(secondsOf(1800, { num: 30000, den: 1001 }), ntsc)).toBe("00:01:00:00");
  });

  it("reads a frame's start kept in whole microseconds (as a player may keep its time) back as that frame", () => {
    for (const rate of [ntsc, pal, { fps_num: 60000, fps_den: 1001 }])
      for (let frame = 0; frame < 100_000; frame += 7) {
        const seconds = Math.floor(secondsOf(frame, { num: rate.fps_num, den: rate.fps_den }) * 1e6) / 1e6;
        expect(momentAt(seconds, rate).frame).toBe(frame);
      }
  });

  it("sends seconds when the version's rate is not known yet (the API turns them into a frame)", () => {
    expect(momentAt(1.5, null)).toEqual({ seconds: 1.5 });
    expect(timecodeAt(1.5, null)).toBeNull();
  });
});
