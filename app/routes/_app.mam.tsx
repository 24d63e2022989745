import { Box, Button, Drawer, ScrollArea } from "@mantine/core";
import { useDisclosure, useMediaQuery } from "@mantine/hooks";
import { Outlet, useLocation, useParams } from "@remix-run/react";
import { useEffect } from "react";
import { ru } from "../i18n/ru";
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
  // A phone (below Mantine's "sm") has no room beside the contents: the tree is a drawer behind «Группы».
  const phone = useMediaQuery("(max-width: 48em)", false, { getInitialValueInEffect: true });
  const [treeOpen, tree] = useDisclosure(false);
  const { pathname } = useLocation();
  // Opening a group from the drawer shows it: the drawer closes on every move.
  // biome-ignore lint/correctness/useExhaustiveDependencies: closes on a change of address only
  useEffect(() => tree.close(), [pathname]);
  const treePane = (
    <>
      <Bookmarks selected={selected} />
      <GroupTree selected={selected} />
    </>
  );
  return (
    <Box style={{ display: "flex", gap: "var(--mantine-spacing-md)", height: PANE_HEIGHT, minHeight: 0 }}>
      {phone ? (
        <Drawer opened={treeOpen} onClose={tree.close} title={ru.nav.groups} size="85%">
          {treePane}
        </Drawer>
      ) : (
        <ScrollArea w={280} miw={200} style={{ flexShrink: 0, borderRight: "1px solid var(--mantine-color-dark-4)" }} pr="xs">
          {treePane}
        </ScrollArea>
      )}
      <Box style={{ flex: 1, minWidth: 0, minHeight: 0, display: "flex", flexDirection: "column" }}>
        {phone && (
          <Button variant="default" size="xs" onClick={tree.open} mb="xs" style={{ alignSelf: "start", flexShrink: 0 }}>
            {ru.nav.groups}
          </Button>
        )}
        <Outlet />
      </Box>
    </Box>
  );
}
