import { Card, Title } from "@mantine/core";
import type { ReactNode } from "react";

/** One part of the automation's setup (trigger, conditions, steps) in a bordered card under its heading. */
export function SectionCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder>
      <Title order={4} mb="xs">
        {title}
      </Title>
      {children}
    </Card>
  );
}
