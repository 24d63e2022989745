import { Box, ScrollArea } from "@mantine/core";
import { Outlet, useParams } from "@remix-run/react";
import { Bookmarks } from "../components/mam/Bookmarks";
import { GroupTree } from "../components/mam/GroupTree";
import { groupIdOf } from "../components/mam/contents";

/** Height of the panes: the viewport below the 56 px header and the shell's padding. */
export const PANE_HEIGHT = "calc(100dvh - 56px - 2 * var(--mantine-spacing-md))";

export { RouteError as ErrorBoundary } from "../components/RouteError";

/**
 * /mam and below: the group tree on the left, the open group (or the viewer) on the right. The open group
 * lives in the URL, so back/forward and a reload land in the same place; the screens' loaders open the tree
 * down to it (openTreeAt in app/components/mam/tree-store.ts). The layout loads nothing itself: a loader
 * here would have to run while a server-rendered group page hydrates, and show a fallback in its place.
 */
export default function MamLayout() {
  const selected = groupIdOf(useParams().idGroup);
  return (
    <Box style={{ display: "flex", gap: "var(--mantine-spacing-md)", height: PANE_HEIGHT, minHeight: 0 }}>
      <ScrollArea w={280} miw={200} style={{ flexShrink: 0, borderRight: "1px solid var(--mantine-color-dark-4)" }} pr="xs">
        <Bookmarks selected={selected} />
        <GroupTree selected={selected} />
      </ScrollArea>
      <Box style={{ flex: 1, minWidth: 0, minHeight: 0, display: "flex", flexDirection: "column" }}>
        <Outlet />
      </Box>
    </Box>
  );
}
