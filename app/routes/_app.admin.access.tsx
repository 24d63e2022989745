import { redirect } from "@remix-run/react";

/** /admin/access is the access screen; it opens on its first tab, the active users. */
export const loader = () => redirect("/admin/active-users");

export { RouteError as ErrorBoundary } from "../components/RouteError";
