import { useLoaderData, useNavigate, useSearchParams, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { useEffect } from "react";
import { LoginForm, type Credentials } from "../components/login/LoginForm";
import { LoginScreen } from "../components/login/LoginScreen";
import { SsoButtons } from "../components/login/SsoButtons";
import { RouteError } from "../components/RouteError";
import { ru } from "../i18n/ru";
import { fetchSsoProviders, login } from "../lib/auth";
import { enforceNavigationGuard, safeReturnPath } from "../lib/guard";
import { pageMeta } from "../lib/meta";
import { showSsoFailure } from "../components/login/SsoButtons";

export const meta = pageMeta(ru.login.title);

/** Signed-in users leave for /mam; /login?token=X signs in with X (the guard); otherwise the form. */
export async function clientLoader({ request }: ClientLoaderFunctionArgs) {
  await enforceNavigationGuard(request);
  return { providers: await fetchSsoProviders() };
}

/** The server cannot see the browser's tokens: it draws the form inert until the guard has run. */
export function HydrateFallback() {
  return (
    <LoginScreen>
      <LoginForm disabled />
    </LoginScreen>
  );
}

/** A failed load shows in the sign-in card, in Russian, with "Повторить". */
export function ErrorBoundary() {
  return (
    <LoginScreen>
      <RouteError />
    </LoginScreen>
  );
}

export default function LoginPage() {
  const { providers } = useLoaderData<typeof clientLoader>();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const returnPath = safeReturnPath(searchParams.get("to"));
  const ssoError = searchParams.get("sso_error");

  // A failed single sign-on comes back as /login?sso_error=<reason>: say why once, then drop it from the address.
  useEffect(() => {
    if (!ssoError) return;
    showSsoFailure(ssoError);
    const to = searchParams.get("to");
    navigate(to ? `/login?to=${encodeURIComponent(to)}` : "/login", { replace: true });
  }, [ssoError, searchParams, navigate]);

  const signIn = async ({ user, passwd }: Credentials) => {
    await login(user, passwd);
    navigate(returnPath, { replace: true });
  };

  return (
    <LoginScreen>
      <LoginForm onSubmit={signIn} />
      <SsoButtons providers={providers} to={returnPath} />
    </LoginScreen>
  );
}
