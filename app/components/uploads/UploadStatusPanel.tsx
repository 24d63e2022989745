import { useLocation } from "@remix-run/react";
import { lazy, Suspense } from "react";
import { ru } from "../../i18n/ru";
import { useStore } from "../../lib/store";
import { pendingStore } from "../../lib/upload-resume";
import { isQueueDone, uploadsStore } from "../../lib/uploads";
import { useLeaveWarning } from "../../lib/use-leave-warning";

// The list is loaded with the first upload, not with every page.
const UploadList = lazy(() => import("./UploadList"));

/**
 * In the app shell: the upload status panel shows when uploads exist (or unfinished ones wait to be resumed
 * after a reload) and the page is not /login; leaving the page asks for confirmation while any upload is unfinished.
 */
export function UploadStatusPanel() {
  const items = useStore(uploadsStore);
  const pending = useStore(pendingStore);
  const { pathname } = useLocation();
  useLeaveWarning(!isQueueDone(items), ru.uploads.leaveWarning);

  if ((items.length === 0 && pending.length === 0) || pathname === "/login") return null;
  return (
    <Suspense fallback={null}>
      <UploadList items={items} />
    </Suspense>
  );
}
