import { Button, Center, Stack, Text, Title } from "@mantine/core";
import { ru } from "../i18n/ru";

/** Full-page message for the root error boundary: unknown path (404) or a crash. */
export function ErrorPage({ notFound }: { notFound: boolean }) {
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" gap="sm" maw={480} ta="center">
        {notFound && (
          <Text fz={64} fw={700} c="dimmed" lh={1}>
            404
          </Text>
        )}
        <Title order={1}>{notFound ? ru.errors.notFoundTitle : ru.errors.crashTitle}</Title>
        <Text c="dimmed">{notFound ? ru.errors.notFoundText : ru.errors.crashText}</Text>
        {/* A plain link: after a crash the client router may be unusable. */}
        <Button component="a" href="/mam" mt="md">
          {ru.errors.toFiles}
        </Button>
      </Stack>
    </Center>
  );
}
