import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData, useParams } from "@remix-run/react";
import { loadContentsSeed } from "../components/mam/contents.server";
import { GroupContents } from "../components/mam/GroupContents";
import { VIRTUAL_ROOT_ID } from "../components/mam/mam-api";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.group);

/** The signed-in layout renders this page on the server (app/routes/_app.tsx). */
export const handle = { serverRender: true };

const groupIdOf = (idGroup: string | undefined) => (idGroup ?? VIRTUAL_ROOT_ID).toLowerCase();

/** A document request: the first page comes with the HTML (contents.server.ts). */
export const loader = ({ params, request, context }: LoaderFunctionArgs) => loadContentsSeed(context, request, groupIdOf(params.idGroup));

/** A navigation inside the app: no server round trip first; the list loads its pages itself. */
export const clientLoader = () => null;

/** /mam/{idGroup}: one group's contents; the tree on the left comes from the /mam layout. */
export default function GroupPage() {
  const id = groupIdOf(useParams().idGroup);
  const seed = useLoaderData<typeof loader>();
  return <GroupContents key={id} groupId={id} seed={seed} />;
}
