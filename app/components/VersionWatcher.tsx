import { useFetcher } from "@remix-run/react";
import { lazy, Suspense, useEffect, useState } from "react";
import { ru } from "../i18n/ru";
import { showError } from "../lib/notify";
import { CURRENT_BUILD, shouldOfferUpdate, VERSION_CHECK_INTERVAL_MS } from "../lib/version";
import type { clientLoader } from "../routes/resources.version";

const UpdateModal = lazy(() => import("./UpdateModal"));

/**
 * Looks for a new deployment every 5 minutes on every page (the root renders it, signed in or not) and
 * offers a reload when another build is there. The check is the resource route /resources/version, loaded
 * by a fetcher on a timer: it reloads no screen's data, and a failed check is a toast, not an error page.
 */
export function VersionWatcher() {
  const { load, data } = useFetcher<typeof clientLoader>();
  const [dismissedBuild, setDismissedBuild] = useState<string | null>(null);

  useEffect(() => {
    const timer = window.setInterval(() => void load("/resources/version"), VERSION_CHECK_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [load]);
  // Each answer is a new object: every failed check says so once.
  useEffect(() => {
    if (data && data.build === null) showError(ru.errors.versionFetch);
  }, [data]);

  const deployed = data?.build;
  if (!deployed || !shouldOfferUpdate(deployed, CURRENT_BUILD, dismissedBuild)) return null;
  return (
    <Suspense fallback={null}>
      <UpdateModal onLater={() => setDismissedBuild(deployed)} />
    </Suspense>
  );
}
