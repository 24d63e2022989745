import { useState } from "react";
import { showInfo } from "../../lib/notify";

/**
 * A form dialog's save: busy while it runs, then the toast the save returns, then `done` (refresh the list,
 * close). On a failure the toast of runCriticalAction has said why, and the dialog stays open with what was typed.
 */
export function useDialogSave(done: () => void) {
  const [busy, setBusy] = useState(false);
  async function save(action: () => Promise<string>) {
    setBusy(true);
    try {
      showInfo(await action());
      done();
    } catch {
      // Said already (see above).
    } finally {
      setBusy(false);
    }
  }
  return { busy, save };
}
