import { Tabs } from "@mantine/core";
import { useLocation, useNavigate } from "@remix-run/react";

export interface RouteTab {
  to: string;
  label: string;
}

/** Tabs whose value is a URL: the address bar picks the tab and a tab click navigates. */
export function RouteTabs({ tabs }: { tabs: RouteTab[] }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  return (
    <Tabs value={pathname} onChange={(to) => to && navigate(to)} keepMounted={false}>
      <Tabs.List>
        {tabs.map((tab) => (
          <Tabs.Tab key={tab.to} value={tab.to}>
            {tab.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
