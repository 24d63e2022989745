import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { ru } from "../i18n/ru";
import { showError } from "../lib/notify";
import { CURRENT_BUILD, fetchDeployedVersion, shouldOfferUpdate, VERSION_CHECK_INTERVAL_MS } from "../lib/version";

const UpdateModal = lazy(() => import("./UpdateModal"));

/** Polls /version.json (spec 1, 9) and offers a reload when another build has been deployed. */
export function VersionWatcher() {
  const [offeredBuild, setOfferedBuild] = useState<string | null>(null);
  const dismissedBuild = useRef<string | null>(null);

  useEffect(() => {
    const check = async () => {
      try {
        const { build } = await fetchDeployedVersion();
        if (shouldOfferUpdate(build, CURRENT_BUILD, dismissedBuild.current)) setOfferedBuild(build);
      } catch (error) {
        console.error(error);
        showError(ru.errors.versionFetch);
      }
    };
    const timer = window.setInterval(check, VERSION_CHECK_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, []);

  if (offeredBuild === null) return null;
  const later = () => {
    dismissedBuild.current = offeredBuild;
    setOfferedBuild(null);
  };
  return (
    <Suspense fallback={null}>
      <UpdateModal onLater={later} />
    </Suspense>
  );
}
