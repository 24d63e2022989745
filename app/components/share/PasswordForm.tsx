import { Alert, Button, PasswordInput, Stack, Text, Title } from "@mantine/core";
import { ru } from "../../i18n/ru";

/** A plain POST form: it works with JavaScript off; the server answers with a redirect and the unlock cookie. */
export function PasswordForm({ error, intent }: { error?: "wrong" | "throttled"; intent?: string }) {
  return (
    <form method="post">
      {/* The review page's action tells its forms apart by intent (app/routes/review.$id.tsx). */}
      {intent && <input type="hidden" name="intent" value={intent} />}
      <Stack gap="sm" maw={360}>
        <Title order={2}>{ru.share.passwordTitle}</Title>
        <Text c="dimmed" size="sm">
          {ru.share.passwordHint}
        </Text>
        {error && (
          <Alert color="red" role="alert">
            {error === "wrong" ? ru.share.wrongPassword : ru.share.throttled}
          </Alert>
        )}
        <PasswordInput name="password" label={ru.share.password} required autoFocus autoComplete="off" />
        <Button type="submit">{ru.share.open}</Button>
      </Stack>
    </form>
  );
}
