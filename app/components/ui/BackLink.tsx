import { Anchor } from "@mantine/core";
import { Link } from "@remix-run/react";

/** «← Назад» above a screen that was opened from a list: back to that list. It keeps its width in a tight header. */
export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <Anchor component={Link} to={to} size="sm" style={{ flexShrink: 0 }}>
      ← {label}
    </Anchor>
  );
}
