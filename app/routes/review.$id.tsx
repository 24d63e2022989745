import { data, redirect, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData, type MetaFunction } from "@remix-run/react";
import { GuestReview } from "../components/review-guest/GuestReview";
import { actOnGuestPage, type GuestActed, guestHeaders, type GuestView, loadGuestPage } from "../server/review-guest.server";
import { PasswordForm } from "../components/share/PasswordForm";
import { ShareLayout, ShareUnavailable } from "../components/share/ShareLayout";
import { ru } from "../i18n/ru";
import { reviewGuest } from "../i18n/ru-review";

/**
 * An external reviewer's page /review/{id} (docs/decisions/061-review-and-approval.md, "External reviewers"), outside
 * the app's layout: rendered on the server from the guest service (the loader), the password, the name, the code, the
 * comments and the decision as forms answered by the action. Never stored at the edge (`private, no-store`).
 */

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: `${d?.state === "open" && d.info.asset ? d.info.asset.name : reviewGuest.pageTitle} — ${ru.app.name}` },
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "same-origin" },
];

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const answer = await loadGuestPage(context, params.id ?? "", request);
  return data<GuestView>(answer.view, { status: answer.status, headers: answer.headers });
}

export async function action({ params, request, context }: ActionFunctionArgs) {
  const answer = await actOnGuestPage(context, params.id ?? "", request);
  if (answer.redirect)
    throw redirect(`/review/${params.id}`, {
      status: 303,
      headers: { ...guestHeaders, ...(answer.cookie ? { "Set-Cookie": answer.cookie } : {}) },
    });
  return data<GuestActed>(answer.acted!, { status: answer.status, headers: guestHeaders });
}

/** The loader's (or the action's) no-store reaches the document. */
export const headers: HeadersFunction = ({ loaderHeaders, actionHeaders }) =>
  actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders;

export { RouteError as ErrorBoundary } from "../components/RouteError";

export default function GuestReviewPage() {
  const view = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  return (
    <ShareLayout>
      {view.state === "open" && <GuestReview info={view.info} comments={view.comments} ticket={view.ticket} acted={acted} />}
      {view.state === "locked" && (
        <PasswordFormFor error={acted?.intent === "password" ? (acted.error as "wrong" | "throttled") : undefined} />
      )}
      {view.state === "unavailable" && <ShareUnavailable reason={view.reason} />}
    </ShareLayout>
  );
}

/** The share links' password form, sent with this page's intent. */
function PasswordFormFor({ error }: { error?: "wrong" | "throttled" }) {
  return (
    <div>
      <PasswordForm error={error} intent="password" />
    </div>
  );
}
