import { Button, PasswordInput, Stack, TextInput } from "@mantine/core";
import { useState, type FormEvent } from "react";
import { ru } from "../../i18n/ru";

export interface Credentials {
  user: string;
  passwd: string;
}

type FieldErrors = Partial<Record<keyof Credentials, string>>;

/**
 * Login and password, both required. `onSubmit` rejects when sign-in failed; its toast is shown
 * by the action, so the form only stops its spinner. `disabled` is the server-rendered state before the
 * page's script can handle a submit.
 */
export function LoginForm({ onSubmit, disabled = false }: { onSubmit?: (credentials: Credentials) => Promise<void>; disabled?: boolean }) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const credentials = { user: String(form.get("user") ?? "").trim(), passwd: String(form.get("passwd") ?? "") };
    const missing: FieldErrors = {};
    if (!credentials.user) missing.user = ru.login.required;
    if (!credentials.passwd) missing.passwd = ru.login.required;
    setErrors(missing);
    if (Object.keys(missing).length > 0 || !onSubmit) return;
    setBusy(true);
    try {
      await onSubmit(credentials);
    } catch {
      // Already reported by a toast.
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate method="post">
      <Stack gap="md">
        <TextInput name="user" label={ru.login.user} autoComplete="username" required autoFocus disabled={disabled} error={errors.user} />
        <PasswordInput
          name="passwd"
          label={ru.login.passwd}
          autoComplete="current-password"
          required
          disabled={disabled}
          error={errors.passwd}
        />
        <Button type="submit" fullWidth loading={busy} disabled={disabled}>
          {ru.login.submit}
        </Button>
      </Stack>
    </form>
  );
}
