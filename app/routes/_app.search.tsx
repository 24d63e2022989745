import { Alert, Button, Group, Pagination, SegmentedControl, Select, Stack, Text, Title } from "@mantine/core";
import { useLoaderData, useNavigate, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { SEARCH_PAGE, type SearchSort } from "../../shared/search/schemas";
import { AnswerPanel } from "../components/search/AnswerPanel";
import { Facets } from "../components/search/Facets";
import { Results } from "../components/search/Results";
import { SearchBox } from "../components/search/SearchBox";
import { type FacetKey, isAsking, readState, type SearchState, toQuery, writeState } from "../components/search/search-params";
import { ru } from "../i18n/ru";
import { ApiError } from "../lib/api";
import { pageMeta } from "../lib/meta";
import { showError } from "../lib/notify";
import { screenLoader } from "../lib/route-data";
import { askAnswer, type RagAnswer, type SearchItem, searchQuery, similarTo } from "../lib/search-api";

export const meta = pageMeta(ru.pages.search);

const t = ru.search;

/** The address holds the whole search (components/search/search-params.ts); the loader runs it. */
export const clientLoader = screenLoader(async ({ request }) => {
  const state = readState(new URL(request.url).searchParams);
  const answer = isAsking(state) ? await searchQuery(toQuery(state), request.signal) : null;
  return { state, answer };
});

export { RouteError as ErrorBoundary } from "../components/RouteError";

/** What "Похожие" showed: the asset asked about and its neighbours, or why there are none. */
type Similar = { name: string; items: SearchItem[]; by: "meaning" | "image" } | { name: string; off: string };

/** /search: the query box, facets, results as a list or tiles, paging by 50, similar assets and an answer. */
export default function SearchPage() {
  const { state, answer } = useLoaderData<typeof clientLoader>();
  const [, setParams] = useSearchParams();
  const navigate = useNavigate();
  const [similar, setSimilar] = useState<Similar | null>(null);
  const [rag, setRag] = useState<RagAnswer | null>(null);

  const go = (next: Partial<SearchState>, keepPage = false) => {
    setSimilar(null);
    setRag(null);
    setParams(writeState({ ...state, ...next, page: keepPage ? (next.page ?? state.page) : 1 }), { preventScrollReset: true });
  };
  const toggle = (key: FacetKey, value: string) => {
    const list = state.facets[key];
    go({ facets: { ...state.facets, [key]: list.includes(value) ? list.filter((v) => v !== value) : [...list, value] } });
  };
  const showSimilar = async (item: SearchItem) => {
    try {
      setSimilar({ name: item.name, ...(await similarTo(item.el_id)) });
    } catch (error) {
      if (error instanceof ApiError && error.status === 503) setSimilar({ name: item.name, off: t.semanticOff });
      else showError(error);
    }
  };
  const ask = async () => {
    try {
      setRag(await askAnswer(state.q, toQuery(state).filters));
    } catch (error) {
      showError(error);
    }
  };
  const pages = answer ? Math.ceil(answer.total / SEARCH_PAGE) : 0;

  return (
    <Stack gap="md">
      <Title order={2}>{ru.pages.search}</Title>
      <SearchBox
        key={state.q}
        initial={state.q}
        onSearch={(q) => go({ q })}
        onPick={(s) => {
          if (s.kind === "asset") navigate(`/asset/${s.id}`);
          else if (s.kind === "group") navigate(`/mam/${s.id}`);
          else if (s.kind === "tag" || s.kind === "taxon")
            go({ q: "", facets: { ...state.facets, [s.kind === "tag" ? "tags" : "taxon"]: [s.id] } });
          else go({ q: s.text });
        }}
      />
      {!answer ? (
        <Text c="dimmed">{t.start}</Text>
      ) : (
        // The results keep at least 320 px beside the facets; narrower (a phone), they go under them at full width.
        <Group align="start" gap="lg">
          <Facets
            facets={answer.facets}
            chosen={state.facets}
            onToggle={toggle}
            onClear={() => go({ facets: { mime: [], class: [], tags: [], taxon: [] } })}
          />
          <Stack gap="sm" style={{ flex: 1, minWidth: "min(100%, 320px)" }}>
            <Group justify="space-between">
              <Text size="sm" aria-live="polite">
                {t.found(answer.total)}
              </Text>
              <Group gap="xs">
                {state.q.trim() && (
                  <Button size="xs" variant="light" onClick={ask}>
                    {t.ask}
                  </Button>
                )}
                <Select
                  size="xs"
                  w={190}
                  aria-label={ru.mam.sortBy}
                  allowDeselect={false}
                  value={state.sort}
                  data={(Object.keys(t.sort) as SearchSort[]).map((value) => ({ value, label: t.sort[value] }))}
                  onChange={(value) => value && go({ sort: value as SearchSort, order: null })}
                />
                <SegmentedControl
                  size="xs"
                  value={state.view}
                  data={[
                    { value: "list", label: ru.mam.viewList },
                    { value: "grid", label: ru.mam.viewGrid },
                  ]}
                  onChange={(view) => go({ view: view as SearchState["view"] }, true)}
                />
              </Group>
            </Group>
            {rag && <AnswerPanel answer={rag} onClose={() => setRag(null)} />}
            {similar && (
              <Alert title={t.similarTitle(similar.name)} withCloseButton closeButtonLabel={t.close} onClose={() => setSimilar(null)}>
                {"off" in similar ? (
                  similar.off
                ) : (
                  <Stack gap={4}>
                    <Text size="xs" c="dimmed" data-testid="similar-by">
                      {t.similarBy[similar.by]}
                    </Text>
                    {similar.items.length ? (
                      <Results items={similar.items} view="list" onSimilar={showSimilar} />
                    ) : (
                      <Text size="sm">{t.similarNone}</Text>
                    )}
                  </Stack>
                )}
              </Alert>
            )}
            {answer.total === 0 ? (
              <Stack gap={4}>
                <Text fw={500}>{t.nothing}</Text>
                <Text size="sm" c="dimmed">
                  {t.nothingHint}
                </Text>
              </Stack>
            ) : (
              <Results items={answer.items} view={state.view} onSimilar={showSimilar} />
            )}
            {pages > 1 && <Pagination value={state.page} total={pages} onChange={(page) => go({ page }, true)} />}
          </Stack>
        </Group>
      )}
    </Stack>
  );
}
