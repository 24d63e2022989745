import { useState } from "react";
import { applyServerErrors, type FormTarget } from "../../lib/form-errors";
import { showInfo } from "../../lib/notify";

/**
 * A form dialog's save: busy while it runs, then the toast the save returns, then `done` (refresh the list,
 * close). On a failure the dialog stays open with what was typed, and the refusal is shown on the form
 * (applyServerErrors, with `fieldOf` naming the form's field of a payload's path).
 */
export function useDialogSave(form: FormTarget, done: () => void, fieldOf?: (field: string) => string | null) {
  const [busy, setBusy] = useState(false);
  async function save(action: () => Promise<string>) {
    setBusy(true);
    try {
      showInfo(await action());
      done();
    } catch (err) {
      applyServerErrors(form, err, fieldOf);
    } finally {
      setBusy(false);
    }
  }
  return { busy, save };
}
