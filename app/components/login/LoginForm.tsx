import { Button, PasswordInput, Stack, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useState } from "react";
import { z } from "zod";
import { ru } from "../../i18n/ru";
import { applyServerErrors } from "../../lib/form-errors";

export type Credentials = { user: string; passwd: string };

/** Both required, with the form's own word for it (the server's schema says it in its own). */
const rules = z.object({ user: z.string().trim().min(1, ru.login.required), passwd: z.string().min(1, ru.login.required) });

/**
 * Login and password, both required. `onSubmit` rejects when sign-in failed: a field the server names gets its
 * message, anything else its toast (applyServerErrors). `disabled` is the server-rendered state before the page's
 * script can handle a submit.
 */
export function LoginForm({ onSubmit, disabled = false }: { onSubmit?: (credentials: Credentials) => Promise<void>; disabled?: boolean }) {
  const form = useForm<Credentials>({ initialValues: { user: "", passwd: "" }, validate: zod4Resolver(rules) });
  const [busy, setBusy] = useState(false);

  const submit = async ({ user, passwd }: Credentials) => {
    if (!onSubmit) return;
    setBusy(true);
    try {
      await onSubmit({ user: user.trim(), passwd });
    } catch (err) {
      applyServerErrors(form, err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate method="post">
      <Stack gap="md">
        <TextInput
          name="user"
          label={ru.login.user}
          autoComplete="username"
          required
          autoFocus
          disabled={disabled}
          {...form.getInputProps("user")}
        />
        <PasswordInput
          name="passwd"
          label={ru.login.passwd}
          autoComplete="current-password"
          required
          disabled={disabled}
          {...form.getInputProps("passwd")}
        />
        <Button type="submit" fullWidth loading={busy} disabled={disabled}>
          {ru.login.submit}
        </Button>
      </Stack>
    </form>
  );
}
