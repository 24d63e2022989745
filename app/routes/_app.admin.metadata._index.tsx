import { Stack, Tabs, Title } from "@mantine/core";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import type { ReactNode } from "react";
import { ClassesPanel } from "../components/metadata/ClassesPanel";
import { ListsPanel } from "../components/metadata/ListsPanel";
import { TagsPanel } from "../components/metadata/TagsPanel";
import { TaxonomyPanel } from "../components/metadata/TaxonomyPanel";
import { TemplatesPanel } from "../components/metadata/TemplatesPanel";
import { loadMetadataTab, metadataTabs, tabOf } from "../components/metadata/tab-data";
import { RouteError } from "../components/RouteError";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";
import { screenLoader } from "../lib/route-data";

export const meta = pageMeta(ru.pages.metadata);

/** Only the open tab's data is loaded; the tab (and the tags filter and page, the open list) live in the address. */
export const clientLoader = screenLoader(async ({ request }) => loadMetadataTab(new URL(request.url).searchParams, request.signal));

/** The title and the tabs, around the open tab's panel (or its load error: the other tabs stay reachable). */
function MetadataFrame({ children }: { children: ReactNode }) {
  const [params, setSearchParams] = useSearchParams();
  const current = tabOf(params);
  const showTab = (tab: string | null) => {
    if (tab && tab !== current) setSearchParams(tab === metadataTabs[0] ? {} : { tab }, { preventScrollReset: true });
  };
  return (
    <Stack gap="md">
      <Title order={2}>{ru.pages.metadata}</Title>
      <Tabs value={current} onChange={showTab} keepMounted={false}>
        <Tabs.List>
          {metadataTabs.map((tab) => (
            <Tabs.Tab key={tab} value={tab}>
              {ru.metadata.tabs[tab]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {children}
    </Stack>
  );
}

export function ErrorBoundary() {
  return (
    <MetadataFrame>
      <RouteError />
    </MetadataFrame>
  );
}

/** /admin/metadata: field templates, asset classes, tags, taxonomy and lists, one tab each. */
export default function MetadataPage() {
  const data = useLoaderData<typeof clientLoader>();
  return (
    <MetadataFrame>
      {data.tab === "templates" && <TemplatesPanel templates={data.templates} />}
      {data.tab === "classes" && <ClassesPanel classes={data.classes} templates={data.templates} />}
      {data.tab === "tags" && <TagsPanel tags={data.tags} q={data.q} page={data.page} />}
      {data.tab === "taxonomy" && <TaxonomyPanel tree={data.tree} />}
      {data.tab === "lists" && <ListsPanel lists={data.lists} listId={data.listId} records={data.records} />}
    </MetadataFrame>
  );
}
