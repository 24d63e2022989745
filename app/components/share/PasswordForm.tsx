import { Alert, Button, PasswordInput, Stack, Text, Title } from "@mantine/core";
import { ru } from "../../i18n/ru";

/** A plain POST form: it works with JavaScript off; the server answers with a redirect and the unlock cookie. */
export function PasswordForm({ error }: { error?: "wrong" | "throttled" }) {
  return (
    <form method="post">
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
