import { Group, Pagination, Stack, Text, Title } from "@mantine/core";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { INBOX_PAGE, listInbox } from "../components/inbox/inbox-api";
import { InboxList, MarkAllRead } from "../components/inbox/InboxList";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";
import { intParam, screenLoader } from "../lib/route-data";

const t = ru.review.inbox;

export const meta = pageMeta(t.title);

/** The page lives in the address (?page=2), so back and a reload show the same items. */
export const clientLoader = screenLoader(async ({ request }) => {
  const page = Math.max(1, intParam(new URL(request.url).searchParams, "page", 1));
  return { page, inbox: await listInbox((page - 1) * INBOX_PAGE, INBOX_PAGE, request.signal) };
});

export { RouteError as ErrorBoundary } from "../components/RouteError";

/** /inbox: «Входящие», the signed-in user's mentions in review comments and requests to approve, newest first. */
export default function InboxPage() {
  const { page, inbox } = useLoaderData<typeof clientLoader>();
  const [, setSearchParams] = useSearchParams();
  const pages = Math.ceil(inbox.total / INBOX_PAGE);
  return (
    <Stack gap="sm" maw={900}>
      <Group justify="space-between">
        <Group gap="sm" align="baseline">
          <Title order={2}>{t.title}</Title>
          <Text size="sm" c="dimmed" data-testid="inbox-unread">
            {t.unread(inbox.unread)}
          </Text>
        </Group>
        {inbox.unread > 0 && <MarkAllRead />}
      </Group>
      <InboxList items={inbox.items} />
      {pages > 1 && <Pagination total={pages} value={page} onChange={(p) => setSearchParams(p > 1 ? { page: String(p) } : {})} />}
    </Stack>
  );
}
