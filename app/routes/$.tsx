import { data } from "@remix-run/react";
import { ErrorPage } from "../components/ErrorPage";

/** Any path no other route takes: a real 404 status, rendered by the root ErrorBoundary in Russian. */
export const loader = () => {
  throw data(null, { status: 404 });
};

export default function NotFound() {
  return <ErrorPage notFound />;
}
