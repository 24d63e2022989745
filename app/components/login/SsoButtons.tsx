import { Button, Divider, Stack } from "@mantine/core";
import { ru } from "../../i18n/ru";
import type { SsoProvider } from "../../lib/auth";
import { showError } from "../../lib/notify";

/** Single sign-on is a browser redirect through the API, which comes back to /login?token=…&to=… (docs/decisions/012). */
export function SsoButtons({ providers, to }: { providers: SsoProvider[]; to: string }) {
  if (providers.length === 0) return null;
  return (
    <Stack gap="sm">
      <Divider label={ru.login.ssoDivider} labelPosition="center" />
      {providers.map((provider) => (
        <Button
          key={provider.name}
          component="a"
          href={`/api/auth/sso/${encodeURIComponent(provider.name)}?to=${encodeURIComponent(to)}`}
          variant="default"
          fullWidth
        >
          {provider.title}
        </Button>
      ))}
    </Stack>
  );
}

/** The toast for /login?sso_error=<reason>: a fixed Russian text per reason, never the provider's own words. */
export function showSsoFailure(reason: string) {
  showError(ru.sso.errors[reason] ?? ru.sso.errors.provider_error);
}
