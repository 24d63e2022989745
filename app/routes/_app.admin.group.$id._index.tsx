import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/react";

/** Spec 2: /admin/group/{id} opens the /actives tab. */
export const loader = ({ params }: LoaderFunctionArgs) => redirect(`/admin/group/${params.id}/actives`);
