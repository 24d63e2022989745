import type { Env } from "./env";
import { ApiError } from "./errors";
import { assertStrongSecret, WeakSecret } from "./keys";

let reported = false;

/**
 * The API refuses every request (500 in the envelope) while JWT_SECRET is shorter than 32 bytes, and
 * says why in the log once per isolate: an operator sees it on the first request after a deploy.
 */
export function refuseWeakSecret(env: Pick<Env, "JWT_SECRET">) {
  try {
    assertStrongSecret(env.JWT_SECRET);
  } catch (err) {
    if (!(err instanceof WeakSecret)) throw err;
    if (!reported) console.error(`Refusing to serve: ${err.message}`);
    reported = true;
    throw new ApiError("internal", "Сервер не настроен: JWT_SECRET короче 32 байт");
  }
}
