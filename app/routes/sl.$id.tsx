import { data, redirect, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData, type MetaFunction } from "@remix-run/react";
import { PasswordForm } from "../components/share/PasswordForm";
import { loadSharePage, unlockSharePage, type ShareView } from "../server/share.server";
import { SharedFile } from "../components/share/SharedFile";
import { ShareLayout, ShareUnavailable } from "../components/share/ShareLayout";
import { ru } from "../i18n/ru";

/**
 * Public short-link page /sl/{id}, outside the layout and the navigation guard: anyone with the link, signed
 * in or not, sees the shared file (docs/decisions/010-share-links.md). Rendered on the server
 * from the share-link service; a plain form for the password, native <video>/<audio>/<img> and download
 * links, so it works with JavaScript off. Cache headers come from the service (docs/decisions/010).
 */

/** Marks the page as needing no client script: the root layout may leave the app bundle out for it. */
export const handle = { hydrate: false };

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: `${d?.state === "open" && d.info.name ? d.info.name : ru.share.pageTitle} — ${ru.app.name}` },
  { name: "robots", content: "noindex" },
  // As the Referrer-Policy header says (app/server/share.server.ts): only the password form needs same-origin.
  { name: "referrer", content: d?.state === "locked" ? "same-origin" : "no-referrer" },
];

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const answer = await loadSharePage(context, params.id ?? "", request);
  return data<ShareView>(answer.view, { status: answer.status, headers: answer.headers });
}

export async function action({ params, request, context }: ActionFunctionArgs) {
  const answer = await unlockSharePage(context, params.id ?? "", request);
  if (answer.cookie) throw redirect(`/sl/${params.id}`, { status: 303, headers: { ...answer.headers, "Set-Cookie": answer.cookie } });
  return data<ShareView>(answer.view, { status: answer.status, headers: answer.headers });
}

/** The loader's (or, after a POST, the action's) Cache-Control and friends reach the document. */
export const headers: HeadersFunction = ({ loaderHeaders, actionHeaders }) =>
  actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders;

export { RouteError as ErrorBoundary } from "../components/RouteError";

export default function ShortLinkPage() {
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  // A failed password POST re-renders the form with its error; everything else is the loader's view.
  const view: ShareView = acted && acted.state !== "open" && loaded.state === "locked" ? acted : loaded;
  return (
    <ShareLayout>
      {view.state === "open" && <SharedFile info={view.info} />}
      {view.state === "locked" && <PasswordForm error={view.error} />}
      {view.state === "unavailable" && <ShareUnavailable reason={view.reason} />}
    </ShareLayout>
  );
}
