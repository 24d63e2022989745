import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { loadContentsSeed } from "../components/mam/contents.server";
import { GroupContents } from "../components/mam/GroupContents";
import { VIRTUAL_ROOT_ID } from "../components/mam/mam-api";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.mam);

/** The signed-in layout renders this page on the server (app/routes/_app.tsx). */
export const handle = { serverRender: true };

export const loader = ({ request, context }: LoaderFunctionArgs) => loadContentsSeed(context, request, VIRTUAL_ROOT_ID);

/** A navigation inside the app: no server round trip first; the list loads its pages itself. */
export const clientLoader = () => null;

/** /mam: the virtual root 'Доступные Файлы', whose contents are the caller's top groups. */
export default function MamPage() {
  return <GroupContents groupId={VIRTUAL_ROOT_ID} seed={useLoaderData<typeof loader>()} />;
}
