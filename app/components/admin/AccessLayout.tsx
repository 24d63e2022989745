import { Stack, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { ru } from "../../i18n/ru";
import { AccessTabs } from "./AccessTabs";

/** The access screen of spec 2: one title, the three tabs, the tab's content. */
export function AccessLayout({ children }: { children: ReactNode }) {
  return (
    <Stack gap="md">
      <Title order={2}>{ru.pages.access}</Title>
      <AccessTabs />
      {children}
    </Stack>
  );
}
