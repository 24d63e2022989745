import { csvText } from "../lib/csv";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { resolveVersion } from "../transcripts/service";
import { toVtt } from "../transcripts/subtitles";
import { loadComments } from "./comments";
import { assetName, assetPerms, versionRate } from "./common";
import type { CommentOut } from "../../shared/review/schemas";
import { convertFrame, dropFrameRate, type Rate, secondsOf, timecode } from "../../shared/review/timecode";

/**
 * Comments as files (docs/decisions/061-review-and-approval.md): a CSV of all of them, a CMX3600 EDL of the timed
 * ones as markers, a WebVTT with a cue for each timed one. Times are counted at the proxy's rate when it is known
 * (the rate editors conform to), else at each comment's own; timecodes run from 00:00:00:00.
 */

type Flat = Omit<CommentOut, "replies">;
type Placed = { frame: number; until: number | null; rate: Rate };

/** A comment's moment at `rate` (its own rate when null); null for a comment with no time. */
function place(c: Flat, rate: Rate | null): Placed | null {
  if (!c.at) return null;
  const own = { num: c.at.fps_num, den: c.at.fps_den };
  const to = rate ?? own;
  return { frame: convertFrame(c.at.frame, own, to), until: c.until ? convertFrame(c.until.frame, own, to) : null, rate: to };
}

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

function csv(items: Flat[], rate: Rate | null) {
  const head = [
    "comment_id",
    "parent_id",
    "version",
    "timecode",
    "frame",
    "fps",
    "seconds",
    "until_timecode",
    "page",
    "author",
    "body",
    "resolved",
    "internal",
    "created",
  ];
  const rows = items.map((c) => {
    const p = place(c, rate);
    return [
      c.comment_id,
      c.parent_id ?? "",
      c.version,
      p ? timecode(p.frame, p.rate) : "",
      p?.frame ?? "",
      p ? `${p.rate.num}/${p.rate.den}` : "",
      p ? secondsOf(p.frame, p.rate) : "",
      p && p.until !== null ? timecode(p.until, p.rate) : "",
      c.page ?? "",
      c.author.name ?? "",
      c.body,
      c.resolved ? "yes" : "no",
      c.internal ? "yes" : "no",
      new Date(c.ctime * 1000).toISOString(),
    ];
  });
  return `${csvText([head, ...rows])}\r\n`;
}

/**
 * CMX3600 with one event per timed comment and its note as a marker (DaVinci Resolve reads `|C:… |M:… |D:…`):
 * source and record both from the comment's frame, one frame long or as long as its range.
 */
function edl(title: string, items: Flat[], proxy: Rate | null, askDrop: boolean) {
  const timed = items.map((c) => ({ c, p: place(c, proxy) })).filter((x): x is { c: Flat; p: Placed } => !!x.p);
  // One rate for the whole list: the proxy's, else the first comment's (the others are converted to it).
  const rate = proxy ?? timed[0]?.p.rate ?? { num: 25, den: 1 };
  const drop = askDrop && dropFrameRate(rate);
  const lines = [`TITLE: ${oneLine(title).slice(0, 70) || "review"}`, `FCM: ${drop ? "DROP FRAME" : "NON-DROP FRAME"}`, ""];
  timed.forEach(({ c, p }, i) => {
    const start = convertFrame(p.frame, p.rate, rate);
    const end = p.until !== null ? Math.max(start + 1, convertFrame(p.until, p.rate, rate)) : start + 1;
    const [a, b] = [timecode(start, rate, drop), timecode(end, rate, drop)];
    const num = String(i + 1).padStart(3, "0");
    const note = oneLine(`${c.author.name ?? ""}: ${c.body}`)
      .replace(/\|/g, "/")
      .slice(0, 500);
    lines.push(`${num}  AX       V     C        ${a} ${b} ${a} ${b}`);
    lines.push(` |C:${c.resolved ? "ResolveColorGreen" : "ResolveColorBlue"} |M:${note} |D:${end - start}`);
    lines.push("");
  });
  return `${lines.join("\r\n")}`;
}

/** The text of a cue: no markup (so no «-->» either, its «>» escaped) and no blank line that would end it. */
const cueText = (s: string) =>
  s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\r\n?/g, "\n")
    .replace(/\n\s*\n+/g, "\n")
    .trim();

/** Seconds a cue lasts when the comment marks a moment, not a range. */
const CUE_SECONDS = 3;

function vtt(items: Flat[], rate: Rate | null) {
  const cues = items.flatMap((c) => {
    const p = place(c, rate);
    if (!p) return [];
    const start = secondsOf(p.frame, p.rate);
    const end = p.until !== null && p.until > p.frame ? secondsOf(p.until, p.rate) : start + CUE_SECONDS;
    return [
      { id: c.comment_id, start, end, text: cueText(c.body) || "…", speaker: c.author.name ? cueText(oneLine(c.author.name)) : undefined },
    ];
  });
  return toVtt(cues.sort((a, b) => a.start - b.start));
}

export async function exportComments(
  db: Db,
  auth: AuthUser,
  assetId: string,
  q: { version?: number; format: "csv" | "edl" | "vtt"; drop_frame?: string },
) {
  await assetPerms(db, auth, assetId);
  const version = await resolveVersion(db, assetId, q.version);
  const [rate, name] = await Promise.all([versionRate(db, assetId, version), assetName(db, assetId)]);
  const tops = await loadComments(db, assetId, version, rate);
  const items: Flat[] = tops.flatMap(({ replies, ...t }) => [t, ...replies]);
  const base = `${name.replace(/\.[^.]*$/, "") || "review"} v${version}`;
  const drop = q.drop_frame === "true" || q.drop_frame === "1";
  if (q.format === "csv") return { body: csv(items, rate), type: "text/csv; charset=utf-8", filename: `${base}.csv` };
  if (q.format === "edl") return { body: edl(base, items, rate, drop), type: "text/plain; charset=utf-8", filename: `${base}.edl` };
  return { body: vtt(items, rate), type: "text/vtt; charset=utf-8", filename: `${base}.vtt` };
}
