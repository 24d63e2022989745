const pad2 = (n: number) => String(n).padStart(2, "0");

/** Seconds as "hh:mm:ss", every part padded (hours may pass 99 for a long duration). */
export function secondsToText(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "";
  const s = Math.max(0, Math.floor(seconds));
  return `${pad2(Math.floor(s / 3600))}:${pad2(Math.floor((s % 3600) / 60))}:${pad2(s % 60)}`;
}

/** "hh:mm:ss", "mm:ss" or plain seconds back to seconds; null when it is not a time (or a time of day past 23:59:59). */
export function textToSeconds(text: string, timeOfDay = false): number | null {
  const parts = text.trim().split(":");
  if (parts.length > 3 || parts.some((p) => !/^\d+$/.test(p))) return null;
  const [h, m, s] = [0, 0, 0, ...parts.map(Number)].slice(-3);
  if ((parts.length > 1 && s > 59) || (parts.length > 2 && m > 59)) return null;
  const total = h * 3600 + m * 60 + s;
  return timeOfDay && total >= 86400 ? null : total;
}
