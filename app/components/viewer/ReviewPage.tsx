import { NumberInput, Text } from "@mantine/core";
import { ru } from "../../i18n/ru";

const t = ru.review.page;

/** The page a comment goes to: a whole number from 1, at most `pages` when the PDF's pages are counted; else null. */
export function pageOf(value: number | string, pages: number | null): number | null {
  const n = typeof value === "number" ? value : value.trim() === "" ? Number.NaN : Number(value);
  return Number.isInteger(n) && n >= 1 && (pages === null || n <= pages) ? n : null;
}

/**
 * «Страница» of the comment box of a PDF (docs/decisions/061, "PDF pages"): the browser's viewer does not tell the
 * page it shows, so the user says it; it starts on the page last opened from a comment, else 1.
 */
export function PageField({
  value,
  onChange,
  pages,
}: {
  value: number | string;
  onChange: (v: number | string) => void;
  pages: number | null;
}) {
  const wrong = pageOf(value, pages) === null;
  return (
    <NumberInput
      size="xs"
      w="11rem"
      label={t.label}
      description={pages ? t.of(pages) : undefined}
      value={value}
      onChange={onChange}
      min={1}
      max={pages ?? undefined}
      allowDecimal={false}
      allowNegative={false}
      error={wrong ? t.invalid(pages) : undefined}
      data-testid="review-page-field"
    />
  );
}

/** «стр. N» beside a comment's author. */
export function PageLabel({ page }: { page: number }) {
  return (
    <Text size="xs" c="yellow.4" data-testid="review-page">
      {t.shown(page)}
    </Text>
  );
}
