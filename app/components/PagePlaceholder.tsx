import { Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { ru } from "../i18n/ru";

/** A titled stub for screens that later work fills in. */
export function PagePlaceholder({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack gap="sm">
      <Title order={2}>{title}</Title>
      {children}
      <Text c="dimmed">{ru.pages.placeholder}</Text>
    </Stack>
  );
}
