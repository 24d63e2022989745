/**
 * A strict SRT / WebVTT reader and writer for transcripts (docs/decisions/059-transcripts.md). No subtitle
 * package is installed in this project, so this small module does the work; it reads what it writes back
 * cue for cue: the same numbers or identifiers, times to the millisecond and line breaks. Anything it cannot
 * read is refused with the 1-based line it stopped at, never guessed around.
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
/** hh:mm:ss,mmm (SRT writes a comma; a full stop is read too, as many tools write it). Hours may have more digits. */
const srtTime = /^(\d{1,3}):([0-5]\d):([0-5]\d)[,.](\d{3})$/;
/** WebVTT: [hh:]mm:ss.ttt. */
const vttTime = /^(?:(\d{1,3}):)?([0-5]\d):([0-5]\d)\.(\d{3})$/;

const toSeconds = (h: string | undefined, m: string, s: string, ms: string) =>
  (Number(h ?? 0) * 3600_000 + Number(m) * 60_000 + Number(s) * 1000 + Number(ms)) / 1000;

/** Splits into lines without the BOM and with CRLF / CR folded to LF, so line numbers are the editor's. */
function linesOf(input: string): string[] {
  return input
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .split("\n");
}

/** Which format a file is in: WebVTT by its signature, otherwise SRT. */
export const detectFormat = (input: string): SubtitleFormat => (/^\uFEFF?WEBVTT(?:[ \t]|\r?\n|\r|$)/.test(input) ? "vtt" : "srt");

function timing(line: string, n: number, re: RegExp): { start: number; end: number; rest: string } {
  const at = line.indexOf(ARROW);
  const left = line.slice(0, at).trim();
  const after = line.slice(at + ARROW.length).trim();
  const [right = "", ...settings] = after.split(/[ \t]+/);
  const a = re.exec(left);
  const b = re.exec(right);
  if (!a) throw new SubtitleError(n, `неверное время начала «${left}»`);
  if (!b) throw new SubtitleError(n, `неверное время конца «${right}»`);
  const start = toSeconds(a[1], a[2]!, a[3]!, a[4]!);
  const end = toSeconds(b[1], b[2]!, b[3]!, b[4]!);
  if (end < start) throw new SubtitleError(n, "конец субтитра раньше начала");
  return { start, end, rest: settings.join(" ") };
}

/** Blocks of non-empty lines with the line number (1-based) of their first line. */
function blocksOf(lines: string[], from: number): { first: number; lines: string[] }[] {
  const out: { first: number; lines: string[] }[] = [];
  let cur: { first: number; lines: string[] } | null = null;
  for (let i = from; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") {
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

export function parseSrt(input: string): Cue[] {
  const cues: Cue[] = [];
  for (const block of blocksOf(linesOf(input), 0)) {
    let i = 0;
    let id: string | undefined;
    if (!block.lines[0]!.includes(ARROW)) {
      if (!/^\d+$/.test(block.lines[0]!.trim())) throw new SubtitleError(block.first, `ожидался номер субтитра, а не «${block.lines[0]}»`);
      id = block.lines[0]!.trim();
      i = 1;
    }
    const line = block.lines[i];
    if (line === undefined || !line.includes(ARROW))
      throw new SubtitleError(block.first + i, "ожидалась строка времени «00:00:00,000 --> 00:00:00,000»");
    const t = timing(line, block.first + i, srtTime);
    if (t.rest) throw new SubtitleError(block.first + i, `лишнее после времени конца: «${t.rest}»`);
    cues.push({ ...(id ? { id } : {}), start: t.start, end: t.end, text: block.lines.slice(i + 1).join("\n") });
  }
  return cues;
}

const voice = /^<v(?:\.[^\s>]+)*[ \t]+([^>]+)>/;

export function parseVtt(input: string): Cue[] {
  const lines = linesOf(input);
  if (!/^WEBVTT(?:[ \t].*)?$/.test(lines[0]!)) throw new SubtitleError(1, "файл WebVTT должен начинаться со строки «WEBVTT»");
  // The header runs to the first empty line.
  let from = 1;
  while (from < lines.length && lines[from]!.trim() !== "") {
    if (lines[from]!.includes(ARROW)) throw new SubtitleError(from + 1, "после «WEBVTT» нужна пустая строка");
    from++;
  }
  const cues: Cue[] = [];
  for (const block of blocksOf(lines, from)) {
    const head = block.lines[0]!;
    // Comments, styles and regions are not cues.
    if (/^(NOTE|STYLE|REGION)(?:[ \t]|$)/.test(head) && !head.includes(ARROW)) continue;
    let i = 0;
    let id: string | undefined;
    if (!head.includes(ARROW)) {
      id = head;
      i = 1;
    }
    const line = block.lines[i];
    if (line === undefined || !line.includes(ARROW))
      throw new SubtitleError(block.first + i, "ожидалась строка времени «00:00:00.000 --> 00:00:00.000»");
    const t = timing(line, block.first + i, vttTime);
    const body = block.lines.slice(i + 1);
    const bad = body.findIndex((l) => l.includes(ARROW));
    if (bad >= 0) throw new SubtitleError(block.first + i + 1 + bad, "в тексте субтитра не может быть «-->»");
    let text = body.join("\n");
    let speaker: string | undefined;
    // A voice is the cue's speaker only when it opens the cue and is its only voice, so writing it back gives the same text.
    const v = voice.exec(text);
    if (v && !/<v[\s.]|<\/v>/.test(text.slice(v[0].length))) {
      speaker = v[1]!.trim();
      text = text.slice(v[0].length);
    }
    cues.push({
      ...(id ? { id } : {}),
      start: t.start,
      end: t.end,
      text,
      ...(speaker ? { speaker } : {}),
      ...(t.rest ? { settings: t.rest } : {}),
    });
  }
  return cues;
}

export const parseSubtitles = (input: string): { format: SubtitleFormat; cues: Cue[] } => {
  const format = detectFormat(input);
  return { format, cues: format === "vtt" ? parseVtt(input) : parseSrt(input) };
};

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
