import { describe, expect, it } from "vitest";
import { parseSrt, parseSubtitles, parseVtt, SubtitleError, toSrt, toText, toVtt } from "../../functions/transcripts/subtitles";

const srt = `1
00:00:01,000 --> 00:00:03,500
Привет, мир.
Вторая строка.

2
00:00:04,250 --> 00:01:02,007
Кошки спят.

7
01:00:00,000 --> 01:00:00,001
Последний.
`;

const vtt = `WEBVTT

intro
00:00:01.000 --> 00:00:03.500 align:start line:0
<v Анна>Привет, мир.
Вторая строка.

00:00:04.250 --> 00:01:02.007
Кошки спят.
`;

const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof SubtitleError) return e;
    throw e;
  }
  throw new Error("no error");
};

describe("SRT", () => {
  it("reads numbers, millisecond times and line breaks", () => {
    expect(parseSrt(srt)).toEqual([
      { id: "1", start: 1, end: 3.5, text: "Привет, мир.\nВторая строка." },
      { id: "2", start: 4.25, end: 62.007, text: "Кошки спят." },
      { id: "7", start: 3600, end: 3600.001, text: "Последний." },
    ]);
  });

  it("writes back exactly what it read (numbering included)", () => {
    expect(toSrt(parseSrt(srt))).toBe(srt);
  });

  it("reads CRLF and a byte order mark, and writes neither", () => {
    const out = toSrt(parseSrt(`\uFEFF${srt.replace(/\n/g, "\r\n")}`));
    expect(out).toBe(srt);
    expect(out.charCodeAt(0)).not.toBe(0xfeff);
  });

  it("names the line of a bad time", () => {
    const e = errorOf(() => parseSrt("1\n00:00:01,000 --> 00:00:02,000\nA\n\n2\n00:00:03 --> 00:00:04,000\nB\n"));
    expect(e.line).toBe(6);
    expect(e.message).toContain("строка 6");
  });

  it("refuses a block without a timing line and an end before the start", () => {
    expect(errorOf(() => parseSrt("1\nтекст без времени\n")).line).toBe(2);
    expect(errorOf(() => parseSrt("\n\nабв\n00:00:01,000 --> 00:00:02,000\n")).line).toBe(3);
    expect(errorOf(() => parseSrt("1\n00:00:05,000 --> 00:00:02,000\nA\n")).line).toBe(2);
  });
});

describe("WebVTT", () => {
  it("reads identifiers, settings and an opening voice as the speaker", () => {
    expect(parseVtt(vtt)).toEqual([
      { id: "intro", start: 1, end: 3.5, text: "Привет, мир.\nВторая строка.", speaker: "Анна", settings: "align:start line:0" },
      { start: 4.25, end: 62.007, text: "Кошки спят." },
    ]);
  });

  it("writes back exactly what it read", () => {
    expect(toVtt(parseVtt(vtt))).toBe(vtt);
  });

  it("skips NOTE blocks and reads times without hours", () => {
    const cues = parseVtt("WEBVTT - title\n\nNOTE a comment\nmore\n\n00:01.500 --> 00:02.000\nA\n");
    expect(cues).toEqual([{ start: 1.5, end: 2, text: "A" }]);
  });

  it("requires the signature and names the line of a bad cue", () => {
    expect(errorOf(() => parseVtt("WEBVT\n\n00:01.000 --> 00:02.000\nA\n")).line).toBe(1);
    expect(errorOf(() => parseVtt("WEBVTT\n\n00:01.000 --> 00:02.000\nA\n\n00:01,000 --> 00:02.000\nB\n")).line).toBe(6);
  });

  it("is told from SRT by its signature", () => {
    expect(parseSubtitles(vtt).format).toBe("vtt");
    expect(parseSubtitles(srt).format).toBe("srt");
  });
});

describe("plain text", () => {
  it("is one cue a line with its speaker", () => {
    expect(toText(parseVtt(vtt))).toBe("Анна: Привет, мир. Вторая строка.\nКошки спят.\n");
  });
});
