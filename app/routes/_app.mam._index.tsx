import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { contentsLoader } from "../components/mam/contents";
import { loadContentsSeed } from "../server/contents.server";
import { GroupContents } from "../components/mam/GroupContents";
import { VIRTUAL_ROOT_ID } from "../components/mam/mam-api";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.mam);

/** The signed-in layout renders this page on the server (app/routes/_app.tsx). */
export const handle = { serverRender: true };

/** A document request: the first page comes with the HTML (contents.server.ts). */
export const loader = ({ request, context }: LoaderFunctionArgs) => loadContentsSeed(context, request, VIRTUAL_ROOT_ID);

export const clientLoader = contentsLoader();

export { RouteError as ErrorBoundary } from "../components/RouteError";

/** /mam: the virtual root 'Доступные Файлы', whose contents are the caller's top groups. */
export default function MamPage() {
  const data = useLoaderData<typeof clientLoader>();
  return data && <GroupContents data={data} />;
}
