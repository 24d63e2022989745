import { ParseError, ParseErrorCode, parseText, parseVTTTimestamp, type VTTCue } from "media-captions";

/**
 * SRT / WebVTT for transcripts (docs/decisions/059-transcripts.md). Reading is media-captions' strict parser
 * (cues, timestamps, WebVTT cue settings and header, each error with its line); this module adds only what that
 * parser passes over in silence, so nothing of a file is lost or guessed: a block that is not a cue (stray text,
 * a missing timing line), a time without milliseconds, an end before the start (it drops such a cue without an
 * error), text after an SRT timing, `-->` inside WebVTT cue text. Every refusal names the 1-based line.
 * Writing is the small serializer below (media-captions has none); it writes back what was read cue for cue:
 * the same numbers or identifiers, times to the millisecond and line breaks.
 */

export interface Cue {
  /** SRT's cue number or WebVTT's cue identifier, as the file had it. */
  id?: string;
  /** Seconds. */
  start: number;
  end: number;
  text: string;
  /** A WebVTT voice (`<v Name>`) opening the whole cue. */
  speaker?: string;
  /** WebVTT cue settings after the timing (e.g. `align:start line:0`), kept so they survive an export. */
  settings?: string;
}

export type SubtitleFormat = "srt" | "vtt";

export class SubtitleError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`строка ${line}: ${reason}`);
  }
}

const ARROW = "-->";
/** hh:mm:ss,mmm (SRT writes a comma; a full stop is read too, as many tools write it). */
const srtTime = /^\d{1,2}:[0-5]\d:[0-5]\d[,.]\d{3}$/;
/** WebVTT: [hh:]mm:ss.ttt, milliseconds required (media-captions would read `00:01` too). */
const vttTime = /^(?:\d{1,2}:)?[0-5]\d:[0-5]\d\.\d{3}$/;

/** Seconds to whole milliseconds: the parser's sums of floats (3600 + 0.001) compare and store exactly so. */
const ms = (seconds: number) => Math.round(seconds * 1000) / 1000;

/**
 * Lines without the BOM, CRLF / CR folded to LF and blank-looking lines made empty (media-captions ends a cue
 * only at an empty line; a stray space would glue the next cue onto it), so line numbers are the editor's.
 */
function linesOf(input: string): string[] {
  return input
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((l) => (l.trim() === "" ? "" : l));
}

/** Which format a file is in: WebVTT by its signature, otherwise SRT. */
export const detectFormat = (input: string): SubtitleFormat => (/^\uFEFF?WEBVTT(?:[ \t]|\r?\n|\r|$)/.test(input) ? "vtt" : "srt");

/** Blocks of non-empty lines with the line number (1-based) of their first line. */
function blocksOf(lines: string[], from: number): { first: number; lines: string[] }[] {
  const out: { first: number; lines: string[] }[] = [];
  let cur: { first: number; lines: string[] } | null = null;
  for (let i = from; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === "") {
      cur = null;
      continue;
    }
    if (!cur) {
      cur = { first: i + 1, lines: [] };
      out.push(cur);
    }
    cur.lines.push(line);
  }
  return out;
}

/** media-captions' error in Russian, with the line it names. */
function packageError(e: ParseError, lines: string[]): SubtitleError {
  const line = Math.max(1, e.line);
  const text = lines[line - 1] ?? "";
  const setting = /`([^`]*)`/.exec(e.message)?.[1] ?? "";
  const reason =
    e.code === ParseErrorCode.BadSignature
      ? "файл WebVTT должен начинаться со строки «WEBVTT»"
      : e.code === ParseErrorCode.BadTimestamp
        ? `неверное время в «${text}»`
        : e.code === ParseErrorCode.UnknownSetting
          ? `неизвестная настройка субтитра «${setting}»`
          : e.code === ParseErrorCode.BadSettingValue
            ? `неверное значение настройки субтитра «${setting}»`
            : e.message;
  return new SubtitleError(line, reason);
}

const voice = /^<v(?:\.[^\s>]+)*[ \t]+([^>]+)>/;

/**
 * The cues of the file's blocks, checked against what media-captions read (`parsed`, its cues in order). Throws
 * at the first block the package passed over or read differently from the file.
 */
function cuesOf(lines: string[], format: SubtitleFormat, parsed: VTTCue[]): Cue[] {
  const vtt = format === "vtt";
  let from = 0;
  if (vtt) {
    if (!/^WEBVTT(?:[ \t].*)?$/.test(lines[0]!)) throw new SubtitleError(1, "файл WebVTT должен начинаться со строки «WEBVTT»");
    // The header runs to the first empty line; the package would take a cue there for a header setting.
    for (from = 1; from < lines.length && lines[from] !== ""; from++)
      if (lines[from]!.includes(ARROW)) throw new SubtitleError(from + 1, "после «WEBVTT» нужна пустая строка");
  }
  const out: Cue[] = [];
  let next = 0;
  for (const block of blocksOf(lines, from)) {
    const head = block.lines[0]!;
    // Comments, regions and styles are not cues (the package skips them alike).
    if (vtt && (head.startsWith("NOTE") || head.startsWith("REGION") || (head.startsWith("STYLE") && !head.includes(ARROW)))) continue;
    let i = 0;
    let id: string | undefined;
    if (!head.includes(ARROW)) {
      if (!vtt && !/^\d+$/.test(head.trim())) throw new SubtitleError(block.first, `ожидался номер субтитра, а не «${head}»`);
      id = vtt ? head : head.trim();
      i = 1;
    }
    const n = block.first + i;
    const line = block.lines[i];
    if (line === undefined || !line.includes(ARROW))
      throw new SubtitleError(n, `ожидалась строка времени «${vtt ? "00:00:00.000 --> 00:00:00.000" : "00:00:00,000 --> 00:00:00,000"}»`);
    const left = line.slice(0, line.indexOf(ARROW)).trim();
    const [right = "", ...settings] = line
      .slice(line.indexOf(ARROW) + ARROW.length)
      .trim()
      .split(/[ \t]+/);
    const re = vtt ? vttTime : srtTime;
    if (!re.test(left)) throw new SubtitleError(n, `неверное время начала «${left}»`);
    if (!re.test(right)) throw new SubtitleError(n, `неверное время конца «${right}»`);
    if (!vtt && settings.length) throw new SubtitleError(n, `лишнее после времени конца: «${settings.join(" ")}»`);
    const start = ms(parseVTTTimestamp(left.replace(",", ".")) ?? Number.NaN);
    const end = ms(parseVTTTimestamp(right.replace(",", ".")) ?? Number.NaN);
    if (Number.isNaN(start) || Number.isNaN(end)) throw new SubtitleError(n, "неверное время");
    if (end < start) throw new SubtitleError(n, "конец субтитра раньше начала");
    const body = block.lines.slice(i + 1);
    const arrow = vtt ? body.findIndex((l) => l.includes(ARROW)) : -1;
    if (arrow >= 0) throw new SubtitleError(n + 1 + arrow, "в тексте субтитра не может быть «-->»");
    let text = body.join("\n");
    // The package leaves out a cue of no duration; it is kept, so a recognised transcript's export imports back.
    if (end > start) {
      const cue = parsed[next++];
      if (!cue || ms(cue.startTime) !== start || ms(cue.endTime) !== end) throw new SubtitleError(n, "субтитр не прочитан");
      // WebVTT reads a first text line such as `line:1` as cue settings; refused rather than lost.
      if (cue.text !== text) throw new SubtitleError(n + 1, `строка читается как настройки субтитра: «${body[0] ?? ""}»`);
      text = cue.text;
    }
    let speaker: string | undefined;
    // A voice is the cue's speaker only when it opens the cue and is its only voice, so writing it back gives the same text.
    const v = vtt ? voice.exec(text) : null;
    if (v && !/<v[\s.]|<\/v>/.test(text.slice(v[0].length))) {
      speaker = v[1]!.trim();
      text = text.slice(v[0].length);
    }
    out.push({
      ...(id ? { id } : {}),
      start,
      end,
      text,
      ...(speaker ? { speaker } : {}),
      ...(vtt && settings.length ? { settings: settings.join(" ") } : {}),
    });
  }
  return out;
}

/** The file's cues, or a SubtitleError at its first problem (the package's or this module's, whichever line is first). */
async function parse(input: string, format: SubtitleFormat): Promise<Cue[]> {
  const lines = linesOf(input);
  // Collected as they come: a strict parse throws at its first error, and the cues before it are still compared.
  const parsed: VTTCue[] = [];
  let failed: SubtitleError | null = null;
  try {
    await parseText(lines.join("\n"), { type: format, strict: true, onCue: (cue) => parsed.push(cue) });
  } catch (e) {
    if (!(e instanceof ParseError)) throw e;
    failed = packageError(e, lines);
  }
  try {
    const cues = cuesOf(lines, format, parsed);
    if (failed) throw failed;
    return cues;
  } catch (e) {
    if (failed && e instanceof SubtitleError && e.line >= failed.line) throw failed;
    throw e;
  }
}

export const parseSrt = (input: string) => parse(input, "srt");
export const parseVtt = (input: string) => parse(input, "vtt");

export async function parseSubtitles(input: string): Promise<{ format: SubtitleFormat; cues: Cue[] }> {
  const format = detectFormat(input);
  return { format, cues: await parse(input, format) };
}

function stamp(seconds: number, sep: "," | "."): string {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3600_000);
  const m = Math.floor((ms % 3600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${pad(h)}:${pad(m)}:${pad(s)}${sep}${pad(ms % 1000, 3)}`;
}

/** SRT: cue numbers as imported when they are numbers, otherwise their position; LF line ends. */
export function toSrt(cues: Cue[]): string {
  return cues
    .map((c, i) => {
      const id = c.id && /^\d+$/.test(c.id) ? c.id : String(i + 1);
      const text = c.speaker ? `${c.speaker}: ${c.text}` : c.text;
      return `${id}\n${stamp(c.start, ",")} ${ARROW} ${stamp(c.end, ",")}\n${text}\n`;
    })
    .join("\n");
}

export function toVtt(cues: Cue[]): string {
  const body = cues.map((c) => {
    const head = c.id ? `${c.id}\n` : "";
    const settings = c.settings ? ` ${c.settings}` : "";
    const text = c.speaker ? `<v ${c.speaker}>${c.text}` : c.text;
    return `${head}${stamp(c.start, ".")} ${ARROW} ${stamp(c.end, ".")}${settings}\n${text}\n`;
  });
  return ["WEBVTT\n", ...body].join("\n");
}

/** Plain text: one cue a line (its line breaks as spaces), the speaker before it. */
export function toText(cues: Cue[]): string {
  return cues.map((c) => `${c.speaker ? `${c.speaker}: ` : ""}${c.text.replace(/\n+/g, " ")}\n`).join("");
}
