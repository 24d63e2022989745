import { redirect } from "@remix-run/react";

/** Spec 2: /admin/access opens its first tab. */
export const loader = () => redirect("/admin/active-users");
