import { describe, expect, it } from "vitest";
import { plural } from "../../app/i18n/plural";
import { ru } from "../../app/i18n/ru";
import { formatCount, formatDate, formatDateTime, formatDuration, formatSize, toDate } from "../../app/lib/format";

describe("formatSize (base 1024, two decimals, Russian decimal comma)", () => {
  it.each([
    [0, "0 байт"],
    [1, "1 байт"],
    [1023, "1023 байт"],
    [1024, "1,00 КБ"],
    [1536, "1,50 КБ"],
    [1024 * 1024 - 1, "1,00 МБ"],
    [1024 * 1024, "1,00 МБ"],
    [5.25 * 1024 * 1024, "5,25 МБ"],
    [1024 ** 3, "1,00 ГБ"],
    [1.5 * 1024 ** 4, "1,50 ТБ"],
    [2048 * 1024 ** 4, "2048,00 ТБ"],
  ])("%s → %s", (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
  });

  it("shows nothing sensible as zero bytes", () => {
    expect(formatSize(null)).toBe("0 байт");
    expect(formatSize(undefined)).toBe("0 байт");
    expect(formatSize(Number.NaN)).toBe("0 байт");
    expect(formatSize(-5)).toBe("0 байт");
  });
});

describe("plural (the categories of Intl.PluralRules('ru'))", () => {
  const files = ru.uploads.files;
  it.each([
    [0, "файлов"],
    [1, "файл"],
    [2, "файла"],
    [4, "файла"],
    [5, "файлов"],
    [11, "файлов"],
    [12, "файлов"],
    [14, "файлов"],
    [21, "файл"],
    [22, "файла"],
    [25, "файлов"],
    [101, "файл"],
    [111, "файлов"],
    [112, "файлов"],
    [122, "файла"],
    [-21, "файл"],
  ])("%s %s", (count, word) => {
    expect(plural(count, files)).toBe(word);
  });

  it("takes the other form for fractions, the few form when no other is given", () => {
    expect(plural(1.5, files)).toBe("файла");
    expect(plural(0.5, files)).toBe("файла");
    const forms = ["one", "few", "many", "other"] as const;
    expect([1, 2, 5, 11, 21, 1.5].map((n) => plural(n, forms))).toEqual(["one", "few", "many", "many", "one", "other"]);
  });

  it("formatCount puts the number before the word", () => {
    expect(formatCount(21, files)).toBe("21 файл");
    expect(formatCount(22, files)).toBe("22 файла");
    expect(formatCount(111, files)).toBe("111 файлов");
  });
});

describe("dates in the Russian short form", () => {
  const moment = Date.UTC(2024, 2, 5, 14, 7, 9); // 5 March 2024 14:07:09 UTC

  it("formats date and date-time", () => {
    expect(formatDate(moment, "UTC")).toBe("05.03.2024");
    expect(formatDateTime(moment, "UTC")).toBe("05.03.2024, 14:07");
  });

  it("accepts ISO strings, Date objects and unix seconds alike", () => {
    expect(formatDate("2024-03-05T14:07:09Z", "UTC")).toBe("05.03.2024");
    expect(formatDate(new Date(moment), "UTC")).toBe("05.03.2024");
    expect(formatDateTime(moment / 1000, "UTC")).toBe("05.03.2024, 14:07");
    expect(toDate(moment / 1000)?.getTime()).toBe(moment);
  });

  it("answers an empty string for missing or invalid dates", () => {
    expect(formatDate(null)).toBe("");
    expect(formatDate("")).toBe("");
    expect(formatDateTime("не дата")).toBe("");
  });
});

describe("formatDuration pads hours, minutes and seconds", () => {
  it.each([
    [0, "00:00:00"],
    [5, "00:00:05"],
    [59.9, "00:00:59"],
    [61, "00:01:01"],
    [3599, "00:59:59"],
    [3661, "01:01:01"],
    [36000, "10:00:00"],
    [360000, "100:00:00"],
  ])("%s s → %s", (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  it("treats missing and negative values as zero", () => {
    expect(formatDuration(null)).toBe("00:00:00");
    expect(formatDuration(-3)).toBe("00:00:00");
  });
});
