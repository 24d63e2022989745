import { Box, ScrollArea } from "@mantine/core";
import { Outlet, useParams } from "@remix-run/react";
import { useEffect } from "react";
import { GroupTree } from "../components/mam/GroupTree";
import { VIRTUAL_ROOT_ID } from "../components/mam/mam-api";
import { resetTree, reveal } from "../components/mam/tree-store";
import { sessionStore } from "../lib/session";
import { useStore } from "../lib/store";

/** Height of the panes: the viewport below the 56 px header and the shell's padding. */
export const PANE_HEIGHT = "calc(100dvh - 56px - 2 * var(--mantine-spacing-md))";

/**
 * /mam and below: the group tree on the left, the open group (or the viewer) on the right. The open group
 * lives in the URL, so back/forward and a reload land in the same place; the tree opens the path to it.
 */
export default function MamLayout() {
  const { idGroup } = useParams();
  const selected = idGroup ?? VIRTUAL_ROOT_ID;
  const userId = useStore(sessionStore).user?.id;

  // Another user signed in in this tab: their tree starts from scratch. A page rendered on the server
  // hydrates before the guard has loaded the user: the tree waits for it.
  useEffect(() => {
    if (userId) resetTree();
  }, [userId]);

  useEffect(() => {
    if (userId) void reveal(selected);
  }, [selected, userId]);

  return (
    <Box style={{ display: "flex", gap: "var(--mantine-spacing-md)", height: PANE_HEIGHT, minHeight: 0 }}>
      <ScrollArea w={280} miw={200} style={{ flexShrink: 0, borderRight: "1px solid var(--mantine-color-dark-4)" }} pr="xs">
        <GroupTree selected={selected} />
      </ScrollArea>
      <Box style={{ flex: 1, minWidth: 0, minHeight: 0, display: "flex", flexDirection: "column" }}>
        <Outlet />
      </Box>
    </Box>
  );
}
