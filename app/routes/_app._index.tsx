import { redirect } from "@remix-run/react";

/** Spec 2: the root layout sends / to /mam. */
export const loader = () => redirect("/mam");
