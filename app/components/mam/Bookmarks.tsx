import { NavLink, Stack, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import { ru } from "../../i18n/ru";
import { useStore } from "../../lib/store";
import { prefsStore } from "../../lib/user-prefs";
import { groupHref } from "./GroupTree";

/** The user's bookmarked groups above the tree (added and removed from a group's menu); nothing when there are none. */
export function Bookmarks({ selected }: { selected: string }) {
  const { bookmarks } = useStore(prefsStore);
  if (bookmarks.length === 0) return null;
  return (
    <Stack gap={0} mb="xs" component="nav" aria-label={ru.mam.bookmarks}>
      <Text size="xs" c="dimmed" tt="uppercase" px="xs" py={4}>
        {ru.mam.bookmarks}
      </Text>
      {bookmarks.map((b) => (
        <NavLink
          key={b.group_id}
          component={Link}
          to={groupHref(b.group_id)}
          label={b.group_name}
          active={b.group_id === selected}
          py={2}
          leftSection={<span aria-hidden="true">★</span>}
        />
      ))}
    </Stack>
  );
}
