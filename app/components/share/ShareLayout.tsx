import { Container, Paper, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { ru } from "../../i18n/ru";

/** The public page's frame: no app header or navigation, nothing that needs a session or JavaScript. */
export function ShareLayout({ children }: { children: ReactNode }) {
  return (
    <Container size="md" py="xl">
      <Stack gap="md">
        <Title order={1} size="h4" c="dimmed">
          {ru.app.name} · {ru.share.pageTitle}
        </Title>
        <Paper withBorder p="lg" radius="md">
          {children}
        </Paper>
      </Stack>
    </Container>
  );
}

export function ShareUnavailable({ reason }: { reason: keyof typeof ru.share.unavailable }) {
  return (
    <Stack gap="xs">
      <Title order={2}>{ru.share.unavailableTitle}</Title>
      <Text>{ru.share.unavailable[reason]}</Text>
    </Stack>
  );
}
