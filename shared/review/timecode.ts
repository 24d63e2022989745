/**
 * Frame arithmetic for review comments (docs/decisions/061-review-and-approval.md). A rate is an exact fraction
 * (30000/1001, never 29.97), so a frame number converts to seconds and back without drift, and timecodes are
 * counted in whole frames.
 */

export interface Rate {
  num: number;
  den: number;
}

const MAX_TERM = 1_000_000;

/** Between 1 and 1000 frames a second, whole terms within a million (ffprobe's r_frame_rate is such a pair). */
export const validRate = (r: Rate) =>
  Number.isInteger(r.num) &&
  Number.isInteger(r.den) &&
  r.num > 0 &&
  r.den > 0 &&
  r.num <= MAX_TERM &&
  r.den <= MAX_TERM &&
  r.num / r.den >= 1 &&
  r.num / r.den <= 1000;

export const sameRate = (a: Rate, b: Rate) => a.num * b.den === b.num * a.den;

export const secondsOf = (frame: number, r: Rate) => (frame * r.den) / r.num;

/** The frame shown at `seconds` (the nearest frame start). */
export const frameAt = (seconds: number, r: Rate) => Math.round((seconds * r.num) / r.den);

/** A frame counted at `from` as the frame at the same moment at `to` (the same number when the rates are equal). */
export const convertFrame = (frame: number, from: Rate, to: Rate) =>
  sameRate(from, to) ? frame : Math.round((frame * from.den * to.num) / (from.num * to.den));

/**
 * A rate from a variant's technical fields: `r_frame_rate` as ffprobe writes it ("30000/1001"), else the rounded
 * `frame_rate` the transcoder stored before it kept the fraction (29.97 reads as 30000/1001); null when unknown.
 */
export function rateOfTech(tech: Record<string, unknown>): Rate | null {
  const exact = typeof tech.r_frame_rate === "string" ? /^(\d+)\/(\d+)$/.exec(tech.r_frame_rate) : null;
  if (exact) {
    const r = { num: Number(exact[1]), den: Number(exact[2]) };
    if (validRate(r)) return r;
  }
  const f = Number(tech.frame_rate);
  if (!Number.isFinite(f) || f < 1 || f > 1000) return null;
  if (Math.abs(f - Math.round(f)) < 0.001) return { num: Math.round(f), den: 1 };
  const ntsc = Math.round(f * 1.001);
  if (Math.abs(ntsc / 1.001 - f) < 0.002) return { num: ntsc * 1000, den: 1001 };
  return null;
}

/** 29.97 and 59.94: the only rates with a drop-frame timecode. */
export const dropFrameRate = (r: Rate) => r.den === 1001 && (r.num === 30000 || r.num === 60000);

const two = (n: number) => String(n).padStart(2, "0");

/**
 * HH:MM:SS:FF from 00:00:00:00. Non-drop-frame counts every frame at the nominal rate (30 for 29.97), so at
 * 29.97 it runs behind the clock by 3.6 s an hour, as editing systems expect. Drop-frame (29.97/59.94 only) skips
 * frame numbers 0 and 1 (0–3 at 59.94) at the start of every minute except each tenth, and uses «;».
 */
export function timecode(frame: number, r: Rate, drop = false): string {
  const base = Math.round(r.num / r.den);
  let f = Math.max(0, frame);
  const df = drop && dropFrameRate(r);
  if (df) {
    const skip = base === 30 ? 2 : 4;
    const perTen = base * 600 - skip * 9;
    const perMinute = base * 60 - skip;
    const tens = Math.floor(f / perTen);
    const rest = f % perTen;
    f += skip * 9 * tens + (rest > skip ? skip * Math.floor((rest - skip) / perMinute) : 0);
  }
  const ff = f % base;
  const s = Math.floor(f / base);
  return `${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}${df ? ";" : ":"}${two(ff)}`;
}

/** WebVTT's HH:MM:SS.mmm. */
export function vttTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const s = Math.floor(ms / 1000);
  return `${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}.${String(ms % 1000).padStart(3, "0")}`;
}
