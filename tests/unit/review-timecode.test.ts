import { describe, expect, it } from "vitest";
import { convertFrame, frameAt, rateOfTech, secondsOf, timecode } from "../../shared/review/timecode";
import { techFromProbe } from "../../transcoder/ops/probe-fields.mjs";

/** Frame arithmetic of review comments (docs/decisions/061-review-and-approval.md). */

const ntsc = { num: 30000, den: 1001 };
const ntsc60 = { num: 60000, den: 1001 };

describe("review timecodes", () => {
  it("counts non-drop-frame at the nominal rate and drop-frame only at 29.97 and 59.94", () => {
    expect(timecode(0, { num: 25, den: 1 })).toBe("00:00:00:00");
    expect(timecode(90_000, { num: 25, den: 1 })).toBe("01:00:00:00");
    expect(timecode(1800, ntsc)).toBe("00:01:00:00");
    expect(timecode(1800, ntsc, true)).toBe("00:01:00;02");
    expect(timecode(1799, ntsc, true)).toBe("00:00:59;29");
    expect(timecode(17982, ntsc, true)).toBe("00:10:00;00");
    expect(timecode(107892, ntsc, true)).toBe("01:00:00;00");
    expect(timecode(3600, ntsc60, true)).toBe("00:01:00;04");
    expect(timecode(215784, ntsc60, true)).toBe("01:00:00;00");
    expect(timecode(87, { num: 25, den: 1 }, true)).toBe("00:00:03:12");
  });

  it("a frame survives seconds and back, and converts between rates by the moment", () => {
    for (const f of [0, 1, 1799, 1800, 17982, 107892]) expect(frameAt(secondsOf(f, ntsc), ntsc)).toBe(f);
    expect(convertFrame(50, { num: 25, den: 1 }, ntsc)).toBe(60);
    expect(convertFrame(1800, ntsc, ntsc)).toBe(1800);
  });

  it("reads a rate from ffprobe's exact fraction, else from the rounded frame_rate", () => {
    expect(rateOfTech({ r_frame_rate: "30000/1001", frame_rate: 29.97 })).toEqual(ntsc);
    expect(rateOfTech({ frame_rate: 29.97 })).toEqual(ntsc);
    expect(rateOfTech({ frame_rate: 23.976 })).toEqual({ num: 24000, den: 1001 });
    expect(rateOfTech({ frame_rate: 25 })).toEqual({ num: 25, den: 1 });
    expect(rateOfTech({ r_frame_rate: "0/0" })).toBeNull();
    expect(rateOfTech({})).toBeNull();
  });

  it("the transcoder keeps the exact r_frame_rate of the video stream", () => {
    const probe = {
      streams: [{ codec_type: "video", width: 1, height: 1, r_frame_rate: "30000/1001", avg_frame_rate: "30000/1001" }],
      format: {},
    };
    expect(techFromProbe(probe)).toMatchObject({ frame_rate: 29.97, r_frame_rate: "30000/1001" });
    expect(techFromProbe({ streams: [{ codec_type: "video", r_frame_rate: "0/0" }], format: {} }).r_frame_rate).toBeUndefined();
  });
});
