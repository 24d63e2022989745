import { useEffect } from "react";

/**
 * Asks the browser to confirm leaving the page while `active` (files still uploading, which leaving would cut off).
 * Browsers show their own wording; the message is set for those that still use it.
 */
export function useLeaveWarning(active: boolean, message: string): void {
  useEffect(() => {
    if (!active) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = message;
      return message;
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [active, message]);
}
