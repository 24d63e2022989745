import { Container, Text } from "@mantine/core";
import { useLoaderData } from "@remix-run/react";
import { PageLoader } from "../components/PageLoader";
import { PagePlaceholder } from "../components/PagePlaceholder";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";
import { screenLoader } from "../lib/route-data";

export const meta = pageMeta(ru.pages.editor);

/** Document editor: full window, outside the layout, but signed-in only like the layout's screens. */
export const clientLoader = screenLoader(async ({ params }) => ({ id: params.id ?? "" }));

export const HydrateFallback = PageLoader;

export { RouteError as ErrorBoundary } from "../components/RouteError";

export default function EditorPage() {
  const { id } = useLoaderData<typeof clientLoader>();
  return (
    <Container fluid py="md">
      <PagePlaceholder title={ru.pages.editor}>
        <Text c="dimmed" size="sm">
          {id}
        </Text>
      </PagePlaceholder>
    </Container>
  );
}
