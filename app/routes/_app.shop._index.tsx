import { Button, Select, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { useSyncedState } from "../lib/use-synced-state";
import { ProductCard } from "../components/shop/ProductCard";
import { ru } from "../i18n/ru";
import { screenLoader } from "../lib/route-data";
import { listProducts } from "../lib/shop-api";

const t = ru.shop;

/** The search and the collection are in the address, so a reload or a shared link shows the same page. */
export const clientLoader = screenLoader(async ({ request }) => {
  const params = new URL(request.url).searchParams;
  const q = params.get("q") ?? "";
  const group = params.get("group") ?? "";
  const [page, collections] = await Promise.all([
    listProducts({ q: q || undefined, group: group || undefined, take: 60 }, request.signal),
    // The collections on sale are the filter's choices.
    listProducts({ take: 100 }, request.signal).then((p) => p.items.filter((i) => i.group_id)),
  ]);
  return { q, group, page, collections };
});

export { RouteError as ErrorBoundary } from "../components/RouteError";

export default function Catalogue() {
  const { q, group, page, collections } = useLoaderData<typeof clientLoader>();
  const [params, setParams] = useSearchParams();
  const [text, setText] = useSyncedState(q);
  const set = (key: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true, preventScrollReset: true });
  };
  return (
    <Stack gap="md">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          set("q", text.trim() || null);
        }}
        style={{ display: "flex", gap: 12 }}
      >
        <TextInput
          aria-label={t.searchPlaceholder}
          placeholder={t.searchPlaceholder}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          style={{ flex: 1 }}
        />
        <Button type="submit" variant="light">
          {t.find}
        </Button>
        <Select
          aria-label={t.collection}
          placeholder={t.allCollections}
          clearable
          data={collections.map((c) => ({ value: c.group_id!, label: c.title }))}
          value={group || null}
          onChange={(v) => set("group", v)}
        />
      </form>
      <Text size="sm" c="dimmed">
        {page.items.length ? t.found(page.total) : t.nothing}
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 2, sm: 3, md: 4, lg: 5 }}>
        {page.items.map((p) => (
          <ProductCard key={p.product_id} product={p} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
