import { Group, Text } from "@mantine/core";
import { timecode } from "../../../shared/review/timecode";
import { ru } from "../../i18n/ru";
import type { CommentsOut } from "./review-api";
import type { Watcher } from "./review-live";

const t = ru.review;

/** Who else is in the asset's live room, once each, with the frame they paused at (as a timecode at the version's rate). */
export function Watching({ watchers, me, rate }: { watchers: Watcher[]; me: string | null; rate: CommentsOut["rate"] }) {
  const others = new Map<string, Watcher>();
  // A guest is told no one's id but its own: the others are told apart by name there.
  const key = (w: Watcher) => w.user_id ?? `name:${w.name ?? ""}`;
  for (const w of watchers) if (w.user_id !== me && (!others.has(key(w)) || w.frame !== null)) others.set(key(w), w);
  if (!others.size) return null;
  const label = (w: Watcher) => {
    const name = w.name ?? t.guestWatcher;
    return w.frame !== null && rate ? t.watchingAt(name, timecode(w.frame, { num: rate.fps_num, den: rate.fps_den })) : name;
  };
  return (
    <Group gap={4} wrap="wrap" data-testid="review-watching">
      <Text size="xs" c="dimmed">
        {t.watching}:
      </Text>
      {[...others.values()].map((w) => (
        <Text key={key(w)} size="xs" data-testid="review-watcher">
          {label(w)}
        </Text>
      ))}
    </Group>
  );
}
