import { plural, type PluralForms } from "../i18n/plural";
import { ru } from "../i18n/ru";

const SIZE_UNITS = [ru.units.kb, ru.units.mb, ru.units.gb, ru.units.tb];

/**
 * Human file size, base 1024 (байт, КБ, МБ, ГБ, ТБ). Bytes are shown whole ("1023 байт"); larger units with two
 * decimals and the Russian decimal comma ("1,50 КБ"). Anything past terabytes stays in ТБ.
 */
export function formatSize(bytes: number | null | undefined): string {
  const value = Number(bytes);
  if (!Number.isFinite(value) || value < 1024) {
    return `${Number.isFinite(value) ? Math.max(0, Math.trunc(value)) : 0} ${ru.units.bytes}`;
  }
  let scaled = value / 1024;
  let unit = 0;
  // 1023.995 and up would print as "1024,00": step up a unit instead.
  while (scaled >= 1023.995 && unit < SIZE_UNITS.length - 1) {
    scaled /= 1024;
    unit += 1;
  }
  return `${scaled.toFixed(2).replace(".", ",")} ${SIZE_UNITS[unit]}`;
}

/** "21 файл", "22 файла", "25 файлов". */
export function formatCount(count: number, forms: PluralForms): string {
  return `${count} ${plural(count, forms)}`;
}

export type DateInput = Date | string | number | null | undefined;

/**
 * Accepts a Date, an ISO string, or a number. Numbers below 1e11 are unix seconds (the API's `expire` and
 * similar fields), larger ones milliseconds: 1e11 s is the year 5138, 1e11 ms is 1973.
 */
export function toDate(input: DateInput): Date | null {
  if (input === null || input === undefined || input === "") return null;
  const date = input instanceof Date ? input : typeof input === "number" ? new Date(input < 1e11 ? input * 1000 : input) : new Date(input);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * One formatter per style and time zone, made on first use: building an Intl.DateTimeFormat costs far more than
 * formatting with it, and a list formats a date on every row of every render (in the browser and in the page's
 * server render alike).
 */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(withTime: boolean, timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${withTime}|${timeZone ?? ""}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat("ru-RU", { dateStyle: "short", timeStyle: withTime ? "short" : undefined, timeZone });
    dateFormats.set(key, format);
  }
  return format;
}

/** Russian short date: "05.03.2024". Empty string for a missing or invalid date. */
export function formatDate(input: DateInput, timeZone?: string): string {
  const date = toDate(input);
  return date ? dateFormat(false, timeZone).format(date) : "";
}

/** Russian short date and time: "05.03.2024, 14:07". */
export function formatDateTime(input: DateInput, timeZone?: string): string {
  const date = toDate(input);
  return date ? dateFormat(true, timeZone).format(date) : "";
}

const pad2 = (n: number) => String(n).padStart(2, "0");

/** Duration in seconds as "hh:mm:ss" with every part padded: 3661 → "01:01:01". Fractions are dropped. */
export function formatDuration(totalSeconds: number | null | undefined): string {
  const seconds = Math.max(0, Math.floor(Number(totalSeconds) || 0));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${pad2(h)}:${pad2(m)}:${pad2(s)}`;
}
