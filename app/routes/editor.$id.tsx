import { Container, Text } from "@mantine/core";
import { useParams, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { PageLoader } from "../components/PageLoader";
import { PagePlaceholder } from "../components/PagePlaceholder";
import { ru } from "../i18n/ru";
import { enforceNavigationGuard } from "../lib/guard";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.editor);

/** Document editor: full window, outside the layout, but signed-in only like the layout's screens. */
export async function clientLoader({ request }: ClientLoaderFunctionArgs) {
  await enforceNavigationGuard(request);
  return null;
}

export const HydrateFallback = PageLoader;

export default function EditorPage() {
  const { id } = useParams();
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
