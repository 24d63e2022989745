import { Group, Text } from "@mantine/core";
import { timecode } from "../../../functions/review/timecode";
import { ru } from "../../i18n/ru";
import type { CommentsOut } from "./review-api";
import type { Watcher } from "./review-live";

const t = ru.review;

/** Who else is in the asset's live room, once each, with the frame they paused at (as a timecode at the version's rate). */
export function Watching({ watchers, me, rate }: { watchers: Watcher[]; me: string | null; rate: CommentsOut["rate"] }) {
  const others = new Map<string, Watcher>();
  for (const w of watchers) if (w.user_id !== me && (!others.has(w.user_id) || w.frame !== null)) others.set(w.user_id, w);
  if (!others.size) return null;
  const label = (w: Watcher) =>
    w.frame !== null && rate ? t.watchingAt(w.name, timecode(w.frame, { num: rate.fps_num, den: rate.fps_den })) : w.name;
  return (
    <Group gap={4} wrap="wrap" data-testid="review-watching">
      <Text size="xs" c="dimmed">
        {t.watching}:
      </Text>
      {[...others.values()].map((w) => (
        <Text key={w.user_id} size="xs" data-testid="review-watcher">
          {label(w)}
        </Text>
      ))}
    </Group>
  );
}
