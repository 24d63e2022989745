import { Center, Paper, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { ru } from "../../i18n/ru";

/** The centred card the sign-in page is drawn in. */
export function LoginScreen({ children }: { children: ReactNode }) {
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="md" p="xl" radius="md" w="100%" maw={380}>
        <Stack gap="lg">
          <Stack gap={4}>
            <Text c="dimmed" size="sm" fw={600} tt="uppercase">
              {ru.app.name}
            </Text>
            <Title order={1} size="h2">
              {ru.login.title}
            </Title>
          </Stack>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
