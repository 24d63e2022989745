import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { contentsLoader, groupIdOf } from "../components/mam/contents";
import { loadContentsSeed } from "../server/contents.server";
import { GroupContents } from "../components/mam/GroupContents";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.group);

/** The signed-in layout renders this page on the server (app/routes/_app.tsx). */
export const handle = { serverRender: true };

/** A document request: the first page comes with the HTML (contents.server.ts). */
export const loader = ({ params, request, context }: LoaderFunctionArgs) => loadContentsSeed(context, request, groupIdOf(params.idGroup));

export const clientLoader = contentsLoader();

export { RouteError as ErrorBoundary } from "../components/RouteError";

/** /mam/{idGroup}: one group's contents; the tree on the left comes from the /mam layout. */
export default function GroupPage() {
  const data = useLoaderData<typeof clientLoader>();
  // A new group is a new list (selection, loaded pages); a new sort or a reload of the same group is not.
  return data && <GroupContents key={data.groupId} data={data} />;
}
