import { Anchor, Badge, Button, Group, Paper, Stack, Text } from "@mantine/core";
import { Link, useNavigate, useRevalidator } from "@remix-run/react";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { formatDateTime } from "../../lib/format";
import { type InboxItem, markRead, viewerPathOf } from "./inbox-api";

const t = ru.review.inbox;

/** One mention or request: who, which file and version, the comment's text and moment; a click opens the viewer there. */
function Item({ item, onOpen, onRead }: { item: InboxItem; onOpen: () => void; onRead: () => void }) {
  const who = item.actor.name ?? t.someone;
  const to = viewerPathOf(item);
  return (
    <Paper withBorder p="sm" data-testid="inbox-item" data-read={item.read} component="li" style={{ listStyle: "none" }}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap="xs">
            {!item.read && (
              <Badge size="xs" color="blue">
                {t.newBadge}
              </Badge>
            )}
            <Text size="sm" fw={item.read ? 400 : 600}>
              {item.kind === "mention" ? t.mention(who) : t.request(who)}
            </Text>
          </Group>
          <Anchor
            component={Link}
            to={to}
            size="sm"
            data-testid="inbox-open"
            onClick={(e) => {
              // Marked read first, then the viewer: the navigation's count is read again on the way. A new tab
              // (a modifier held) keeps the link's own behaviour.
              if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
              e.preventDefault();
              onOpen();
            }}
          >
            {item.asset_name} · {t.version(item.version)}
            {item.at ? ` · ${t.at(item.at.timecode)}` : ""}
          </Anchor>
          {item.body && (
            <Text size="sm" c="dimmed" lineClamp={3} style={{ whiteSpace: "pre-wrap" }}>
              {item.body}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            {formatDateTime(item.ctime)}
          </Text>
        </Stack>
        {!item.read && (
          <Button size="xs" variant="subtle" onClick={onRead}>
            {t.markRead}
          </Button>
        )}
      </Group>
    </Paper>
  );
}

/** The inbox's list, newest first; the route's loader reads it, and reads it again after each change made here. */
export function InboxList({ items }: { items: InboxItem[] }) {
  const navigate = useNavigate();
  const { revalidate } = useRevalidator();
  const open = (item: InboxItem) =>
    runAction(async () => {
      if (!item.read) await markRead({ ids: [item.item_id] });
      navigate(viewerPathOf(item));
    });
  const read = (item: InboxItem) =>
    runAction(async () => {
      await markRead({ ids: [item.item_id] });
      revalidate();
    });
  if (!items.length) return <Text c="dimmed">{t.empty}</Text>;
  return (
    <Stack component="ul" gap="xs" p={0} m={0} aria-label={t.list}>
      {items.map((item) => (
        <Item key={item.item_id} item={item} onOpen={() => open(item)} onRead={() => read(item)} />
      ))}
    </Stack>
  );
}

/** «Отметить все прочитанными». */
export function MarkAllRead() {
  const { revalidate } = useRevalidator();
  return (
    <Button
      size="xs"
      variant="default"
      onClick={() =>
        runAction(async () => {
          await markRead({ all: true });
          revalidate();
        })
      }
    >
      {t.markAll}
    </Button>
  );
}
