import { Alert, Button, Code, Stack, Text } from "@mantine/core";
import { isRouteErrorResponse, useRevalidator, useRouteError } from "@remix-run/react";
import { ru } from "../i18n/ru";
import { ApiError } from "../lib/api";
import { errorMessage } from "../lib/notify";

/**
 * Every screen's ErrorBoundary (`export { RouteError as ErrorBoundary }`): a failed load shows in place
 * of the screen, in Russian, with the server's message and request id, and a button that loads again. The
 * header and the rest of the layout stay usable. A 401 needs nothing here: it clears the session, and the
 * layout sends the user to sign in.
 */
export function RouteError() {
  const error = useRouteError();
  const { revalidate, state } = useRevalidator();
  const status = error instanceof ApiError ? error.status : isRouteErrorResponse(error) ? error.status : 0;
  const title = status === 404 ? ru.errors.screenNotFound : status === 403 ? ru.errors.screenForbidden : ru.errors.screenFailed;
  const message = isRouteErrorResponse(error) ? String(error.data ?? error.statusText) : errorMessage(error);
  const requestId = error instanceof ApiError ? error.requestId : undefined;
  if (!(error instanceof ApiError) && !isRouteErrorResponse(error)) console.error(error);
  return (
    <Alert color="red" title={title} role="alert" maw={640}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{message}</Text>
        {requestId && (
          <Text size="xs" c="dimmed">
            {ru.errors.requestId} <Code>{requestId}</Code>
          </Text>
        )}
        <Button size="xs" variant="light" loading={state === "loading"} onClick={() => revalidate()}>
          {ru.errors.retry}
        </Button>
      </Stack>
    </Alert>
  );
}
