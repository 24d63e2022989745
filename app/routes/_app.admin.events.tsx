import { Button, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { EventsExportButton } from "../components/admin/EventsExportButton";
import { RemotePicker, findUsers } from "../components/admin/pickers";

import { ru } from "../i18n/ru";
import { getUser } from "../lib/admin-api";

import { listEvents } from "../lib/events-api";

import { pageMeta } from "../lib/meta";
import { screenLoader, useRevalidateEvery } from "../lib/route-data";
import { EventsTable } from "../components/events/EventsTable";

export const meta = pageMeta(ru.pages.events);

const t = ru.admin.events;

/** A date input's day as Unix seconds: the start of the day for "from", its end for "to" (local time). */
const dayToSeconds = (day: string | null, end: boolean) => {
  if (!day) return undefined;
  const at = new Date(`${day}T${end ? "23:59:59" : "00:00:00"}`).getTime();
  return Number.isFinite(at) ? Math.floor(at / 1000) : undefined;
};

/** The filters and the page (a cursor) are in the address: a reload or a shared link shows the same list. */
export const clientLoader = screenLoader(async ({ request }) => {
  const params = new URL(request.url).searchParams;
  const filters = {
    kind: params.get("kind") ?? "",
    entity: params.get("entity") ?? "",
    user: params.get("user"),
    from: params.get("from"),
    to: params.get("to"),
    cursor: params.get("cursor"),
  };
  const [page, user] = await Promise.all([
    listEvents(
      {
        kinds: filters.kind.trim() ? [filters.kind.trim()] : undefined,
        entity: filters.entity.trim() ? { id: filters.entity.trim() } : undefined,
        user: filters.user ?? undefined,
        from: dayToSeconds(filters.from, false),
        to: dayToSeconds(filters.to, true),
        cursor: filters.cursor ?? undefined,
        take: 50,
      },
      request.signal,
    ),
    filters.user ? getUser(filters.user, request.signal).catch(() => null) : null,
  ]);
  return { filters, page, userLabel: user ? `${user.user_name} (${user.login})` : filters.user };
});

export { RouteError as ErrorBoundary } from "../components/RouteError";

/** /admin/events: the events list, newest first, filtered; the newest page refreshes itself. */
export default function EventsPage() {
  const { filters, page, userLabel } = useLoaderData<typeof clientLoader>();
  const [params, setParams] = useSearchParams();
  // Only the newest page changes as events arrive; an older page stays as it was read.
  useRevalidateEvery(filters.cursor ? 0 : 5000);
  const set = (key: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== "cursor") next.delete("cursor");
    setParams(next, { replace: key !== "cursor", preventScrollReset: true });
  };
  return (
    <Stack gap="md">
      <Group justify="space-between" align="end">
        <Title order={2}>{ru.pages.events}</Title>
        {!filters.cursor && (
          <Text size="sm" c="dimmed">
            {t.live}
          </Text>
        )}
      </Group>
      <Group align="end" gap="sm">
        <TextInput
          label={t.filters.kind}
          placeholder={t.filters.kindHint}
          value={filters.kind}
          onChange={(e) => set("kind", e.currentTarget.value)}
          w={220}
        />
        <RemotePicker
          label={t.filters.user}
          value={filters.user ? { value: filters.user, label: userLabel ?? filters.user } : null}
          onChange={(u) => set("user", u?.value ?? null)}
          search={findUsers}
        />
        <TextInput label={t.filters.entity} value={filters.entity} onChange={(e) => set("entity", e.currentTarget.value)} w={320} />
        <TextInput label={t.filters.from} type="date" value={filters.from ?? ""} onChange={(e) => set("from", e.currentTarget.value)} />
        <TextInput label={t.filters.to} type="date" value={filters.to ?? ""} onChange={(e) => set("to", e.currentTarget.value)} />
        <EventsExportButton from={dayToSeconds(filters.from, false)} to={dayToSeconds(filters.to, true)} kind={filters.kind} />
      </Group>
      {page.items.length === 0 ? (
        <Text c="dimmed">{t.empty}</Text>
      ) : (
        <EventsTable
          events={page.items}
          minWidth={720}
          aria-label={ru.pages.events}
          head={[t.columns.time, t.columns.kind, t.columns.user, t.columns.entity, t.columns.data]}
        />
      )}
      <Group gap="xs">
        {filters.cursor && (
          <Button variant="default" size="xs" onClick={() => set("cursor", null)}>
            {t.newest}
          </Button>
        )}
        {page.next_cursor && (
          <Button variant="default" size="xs" onClick={() => set("cursor", page.next_cursor)}>
            {t.older}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
