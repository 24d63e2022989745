import "./lib/zod-jitless";
import "@mantine/core/styles.css";
import "@mantine/notifications/styles.css";
import "./styles/phone.css";

import { ColorSchemeScript, MantineProvider } from "@mantine/core";
import { Notifications } from "@mantine/notifications";
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useMatches,
  useRouteError,
} from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { ErrorPage } from "./components/ErrorPage";
import { UploadStatusPanel } from "./components/uploads/UploadStatusPanel";
import { VersionWatcher } from "./components/VersionWatcher";
import { ru } from "./i18n/ru";
import { TOAST_AUTO_CLOSE_MS, TOAST_WIDTH_PX } from "./lib/notify";
import { startErrorReporting } from "./lib/error-reporting.client";
import { useNonce } from "./lib/nonce";
import { publicEnv } from "./lib/public-env";
import { startServiceWorker } from "./lib/service-worker";
import { theme } from "./theme";

export const meta = () => [{ title: ru.app.name }];

export const links = () => [{ rel: "icon", href: "/favicon.ico", sizes: "any" }];

/** The allow-listed public variables (app/lib/public-env.ts), read once per page load: they change only with a deploy. */
export const loader = ({ context }: LoaderFunctionArgs) => ({ publicEnv: publicEnv((context.cloudflare as { env: object }).env) });
export const shouldRevalidate = () => false;

/**
 * The document for every page, error pages included. The dark scheme is in the server-rendered <html>
 * so the page is dark before any script runs. A route whose handle says `hydrate: false` (the public
 * share page, app/routes/sl.$id.tsx) is HTML and CSS only: no script at all, which keeps it under its
 * transfer budget, works the same with JavaScript off, and lets the edge cache keep it (an inline script
 * would carry one request's nonce). Every inline script of other pages carries the request's nonce.
 */
export function Layout({ children }: { children: ReactNode }) {
  const hydrate = !useMatches().some((m) => (m.handle as { hydrate?: boolean } | undefined)?.hydrate === false);
  const nonce = useNonce();
  return (
    <html lang="ru" data-mantine-color-scheme="dark" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="dark" />
        <Meta />
        <Links />
        {hydrate && <ColorSchemeScript defaultColorScheme="dark" nonce={nonce} />}
      </head>
      <body>
        <MantineProvider theme={theme} defaultColorScheme="dark">
          {children}
        </MantineProvider>
        {hydrate && <ScrollRestoration nonce={nonce} />}
        {hydrate && <Scripts nonce={nonce} />}
      </body>
    </html>
  );
}

export default function App() {
  const { publicEnv: env } = useLoaderData<typeof loader>();
  useEffect(() => startServiceWorker(), []);
  useEffect(() => {
    void startErrorReporting(env);
  }, [env]);
  return (
    <>
      <Notifications autoClose={TOAST_AUTO_CLOSE_MS} containerWidth={TOAST_WIDTH_PX} position="top-right" />
      <VersionWatcher />
      <UploadStatusPanel />
      <Outlet />
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!notFound) console.error(error);
  return <ErrorPage notFound={notFound} />;
}

/** A loader for any screen whose data is still loading in the browser during hydration. */
export { PageLoader as HydrateFallback } from "./components/PageLoader";
