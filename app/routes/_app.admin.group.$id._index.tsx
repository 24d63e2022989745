import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/react";

/** /admin/group/{id} opens on the group's rules, the /actives tab. */
export const loader = ({ params }: LoaderFunctionArgs) => redirect(`/admin/group/${params.id}/actives`);

export { RouteError as ErrorBoundary } from "../components/RouteError";
