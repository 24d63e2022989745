import { ApiError } from "./api";
import { showError } from "./notify";

/** What of a Mantine form (useForm) a refusal is put on. */
export interface FormTarget {
  getValues: () => object;
  setErrors: (errors: Record<string, string>) => void;
}

/**
 * A failed submit, shown on its form (docs/decisions/068-forms.md). Each `{ field, message }` of a 4xx envelope's
 * details whose field is one of the form's goes under that input: the payload's path ("shares.0.subject") is the
 * form's path unless `fieldOf` renames it (null: not on this form). When no field gets one, the toast says why.
 */
export function applyServerErrors(form: FormTarget, err: unknown, fieldOf: (field: string) => string | null = (field) => field): void {
  const values = form.getValues();
  const placed: Record<string, string> = {};
  const details = err instanceof ApiError && err.status >= 400 && err.status < 500 ? (err.envelope?.details ?? []) : [];
  for (const detail of details as { field?: unknown; message?: unknown }[]) {
    if (typeof detail?.field !== "string" || typeof detail.message !== "string") continue;
    const path = fieldOf(detail.field);
    if (path !== null && path.split(".")[0] in values) placed[path] ??= detail.message;
  }
  if (Object.keys(placed).length > 0) form.setErrors(placed);
  else showError(err);
}
