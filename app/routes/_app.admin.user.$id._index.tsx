import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/react";

/** /admin/user/{id} opens on the user's rules, the /actives tab. */
export const loader = ({ params }: LoaderFunctionArgs) => redirect(`/admin/user/${params.id}/actives`);

export { RouteError as ErrorBoundary } from "../components/RouteError";
