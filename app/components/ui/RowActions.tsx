import { Button, Group, Table } from "@mantine/core";
import type { ReactNode } from "react";

/** The last cell of a list row: its buttons side by side, never wrapped under each other. */
export function RowActions({ children, justify, gap = "xs" }: { children: ReactNode; justify?: "flex-end"; gap?: "xs" | number }) {
  return (
    <Table.Td>
      <Group gap={gap} justify={justify} wrap="nowrap">
        {children}
      </Group>
    </Table.Td>
  );
}

/** A row's button that removes something (delete, revoke, remove from a team): small, quiet, red. */
export function DangerButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <Button size="xs" variant="subtle" color="red" onClick={onClick}>
      {children}
    </Button>
  );
}
