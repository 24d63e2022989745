import { Text } from "@mantine/core";

/**
 * A search snippet: the API sends HTML-escaped text with the hits in <mark>. It is turned into text and <mark>
 * elements here, never set as HTML, so nothing in a file's name or text can become markup.
 */
const unescapeHtml = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");

export function Snippet({ html }: { html: string }) {
  const parts = html.split(/<mark>|<\/mark>/);
  return (
    <Text size="sm" c="dimmed" lineClamp={2} data-snippet>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet never reorder
          <mark key={i}>{unescapeHtml(part)}</mark>
        ) : (
          unescapeHtml(part)
        ),
      )}
    </Text>
  );
}
