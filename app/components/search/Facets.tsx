import { Button, Checkbox, Stack, Text, Title } from "@mantine/core";
import { ru } from "../../i18n/ru";
import type { SearchAnswer } from "../../lib/search-api";
import { type FacetKey, facetKeys } from "./search-params";

const t = ru.search;

/** The facet panel: each facet's values with their counts in the current result; ticking one narrows it. */
export function Facets({
  facets,
  chosen,
  onToggle,
  onClear,
}: {
  facets: SearchAnswer["facets"];
  chosen: Record<FacetKey, string[]>;
  onToggle: (key: FacetKey, value: string) => void;
  onClear: () => void;
}) {
  const any = facetKeys.some((k) => chosen[k].length > 0);
  return (
    <Stack gap="md" w={240} style={{ flexShrink: 0 }} aria-label={t.facets.title} role="region">
      <Title order={5}>{t.facets.title}</Title>
      {facetKeys.map((key) => {
        // A chosen value stays listed (to untick it) even when the narrowed result no longer counts it.
        const values = [...facets[key]];
        for (const v of chosen[key]) if (!values.some((f) => f.value === v)) values.push({ value: v, label: v, count: 0 });
        if (values.length === 0) return null;
        return (
          <Stack gap={6} key={key} role="group" aria-label={t.facets[key]}>
            <Text size="sm" fw={600}>
              {t.facets[key]}
            </Text>
            {values.map((f) => (
              <Checkbox
                key={f.value}
                size="xs"
                checked={chosen[key].includes(f.value)}
                onChange={() => onToggle(key, f.value)}
                label={`${key === "mime" ? (t.mimeFamily[f.label] ?? f.label) : f.label} (${f.count})`}
              />
            ))}
          </Stack>
        );
      })}
      {any && (
        <Button size="xs" variant="subtle" onClick={onClear}>
          {t.facets.clear}
        </Button>
      )}
    </Stack>
  );
}
