import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/react";

/** Spec 2: /admin/user/{id} opens the /actives tab. */
export const loader = ({ params }: LoaderFunctionArgs) => redirect(`/admin/user/${params.id}/actives`);
