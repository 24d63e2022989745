import { Stack, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { ru } from "../../i18n/ru";
import { RouteError } from "../RouteError";
import { AccessTabs } from "./AccessTabs";

/** The access screen: one title, the three tabs, the tab's content. */
export function AccessLayout({ children }: { children: ReactNode }) {
  return (
    <Stack gap="md">
      <Title order={2}>{ru.pages.access}</Title>
      <AccessTabs />
      {children}
    </Stack>
  );
}

/** The ErrorBoundary of the access tabs: a failed load shows under the tabs, which stay usable. */
export function AccessError() {
  return (
    <AccessLayout>
      <RouteError />
    </AccessLayout>
  );
}
