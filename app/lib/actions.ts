import { showError } from "./notify";

/**
 * Spec 7: most store actions log the error, show it in a toast and carry on with `undefined`.
 * `silent` skips the toast (whoami).
 */
export async function runAction<T>(action: () => Promise<T>, options: { silent?: boolean } = {}): Promise<T | undefined> {
  try {
    return await action();
  } catch (error) {
    console.error(error);
    if (!options.silent) showError(error);
    return undefined;
  }
}

/** Login, info, create and delete: log and toast like the others, then rethrow so the caller can react. */
export async function runCriticalAction<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    console.error(error);
    showError(error);
    throw error;
  }
}
