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

const errorOf = async (work: Promise<unknown>) => {
  try {
    await work;
  } catch (e) {
    if (e instanceof SubtitleError) return e;
    throw e;
  }
  throw new Error("no error");
};

describe("SRT", () => {
  it("reads numbers, millisecond times and line breaks", async () => {
    expect(await parseSrt(srt)).toEqual([
      { id: "1", start: 1, end: 3.5, text: "Привет, мир.\nВторая строка." },
      { id: "2", start: 4.25, end: 62.007, text: "Кошки спят." },
      { id: "7", start: 3600, end: 3600.001, text: "Последний." },
    ]);
  });

  it("writes back exactly what it read (numbering included)", async () => {
    expect(toSrt(await parseSrt(srt))).toBe(srt);
  });

  it("reads CRLF and a byte order mark, and writes neither", async () => {
    const out = toSrt(await parseSrt(`\uFEFF${srt.replace(/\n/g, "\r\n")}`));
    expect(out).toBe(srt);
    expect(out.charCodeAt(0)).not.toBe(0xfeff);
  });

  it("names the line of a bad time", async () => {
    const e = await errorOf(parseSrt("1\n00:00:01,000 --> 00:00:02,000\nA\n\n2\n00:00:03 --> 00:00:04,000\nB\n"));
    expect(e.line).toBe(6);
    expect(e.message).toContain("строка 6");
  });

  it("refuses a block without a timing line and an end before the start", async () => {
    expect((await errorOf(parseSrt("1\nтекст без времени\n"))).line).toBe(2);
    expect((await errorOf(parseSrt("\n\nабв\n00:00:01,000 --> 00:00:02,000\n"))).line).toBe(3);
    expect((await errorOf(parseSrt("1\n00:00:05,000 --> 00:00:02,000\nA\n"))).line).toBe(2);
  });
});

describe("SRT, what the package passes over", () => {
  it("keeps a cue of no duration, so a recognised transcript's export imports back", async () => {
    const file = "1\n00:00:01,000 --> 00:00:01,000\nМиг.\n\n2\n00:00:02,000 --> 00:00:03,000\nДальше.\n";
    const cues = await parseSrt(file);
    expect(cues.map((c) => [c.start, c.end, c.text])).toEqual([
      [1, 1, "Миг."],
      [2, 3, "Дальше."],
    ]);
    expect(toSrt(cues)).toBe(file);
  });

  it("takes a line of spaces between cues for an empty one, and refuses text after the end time", async () => {
    const cues = await parseSrt("1\n00:00:01,000 --> 00:00:02,000\nA\n  \n2\n00:00:03,000 --> 00:00:04,000\nB\n");
    expect(cues.map((c) => c.text)).toEqual(["A", "B"]);
    expect((await errorOf(parseSrt("1\n00:00:01,000 --> 00:00:02,000 X1:40\nA\n"))).line).toBe(2);
  });
});

describe("WebVTT", () => {
  it("reads identifiers, settings and an opening voice as the speaker", async () => {
    expect(await parseVtt(vtt)).toEqual([
      { id: "intro", start: 1, end: 3.5, text: "Привет, мир.\nВторая строка.", speaker: "Анна", settings: "align:start line:0" },
      { start: 4.25, end: 62.007, text: "Кошки спят." },
    ]);
  });

  it("writes back exactly what it read", async () => {
    expect(toVtt(await parseVtt(vtt))).toBe(vtt);
  });

  it("skips NOTE blocks and reads times without hours", async () => {
    const cues = await parseVtt("WEBVTT - title\n\nNOTE a comment\nmore\n\n00:01.500 --> 00:02.000\nA\n");
    expect(cues).toEqual([{ start: 1.5, end: 2, text: "A" }]);
  });

  it("requires the signature and names the line of a bad cue", async () => {
    expect((await errorOf(parseVtt("WEBVT\n\n00:01.000 --> 00:02.000\nA\n"))).line).toBe(1);
    expect((await errorOf(parseVtt("WEBVTT\n\n00:01.000 --> 00:02.000\nA\n\n00:01,000 --> 00:02.000\nB\n"))).line).toBe(6);
  });

  it("refuses an unknown or bad cue setting naming its line (media-captions' own check)", async () => {
    const unknown = await errorOf(parseVtt("WEBVTT\n\n00:01.000 --> 00:02.000\nA\n\n00:03.000 --> 00:04.000 colour:red\nB\n"));
    expect(unknown.line).toBe(6);
    expect(unknown.reason).toContain("colour");
    expect((await errorOf(parseVtt("WEBVTT\n\n00:01.000 --> 00:02.000 align:sideways\nA\n"))).line).toBe(3);
  });

  it("refuses `-->` in cue text and a first text line the parser would take for settings", async () => {
    expect((await errorOf(parseVtt("WEBVTT\n\n00:01.000 --> 00:02.000\nA\nB --> C\n"))).line).toBe(5);
    expect((await errorOf(parseVtt("WEBVTT\n\n00:01.000 --> 00:02.000\nline:1 is spoken\n"))).line).toBe(4);
  });

  it("is told from SRT by its signature", async () => {
    expect((await parseSubtitles(vtt)).format).toBe("vtt");
    expect((await parseSubtitles(srt)).format).toBe("srt");
  });
});

describe("plain text", () => {
  it("is one cue a line with its speaker", async () => {
    expect(toText(await parseVtt(vtt))).toBe("Анна: Привет, мир. Вторая строка.\nКошки спят.\n");
  });
});
