import { envProblems } from "../lib/config";
import type { Env } from "../lib/env";
import { ApiError } from "../lib/errors";

/**
 * The Worker's variables, checked before any route runs with the schema that parses them (functions/lib/config.ts):
 * a deploy with a missing or weak JWT_SECRET, a malformed SSO_PROVIDERS, a URL that is not one or a transcoder
 * that could not call back answers every API request with one 500 naming the variables, instead of failing
 * somewhere later. The schema parses once per bindings object, so this costs a lookup per request.
 */

let reported: string | undefined;

/** Throws the one 500 while the variables are wrong; the reason is logged once per isolate (and per new reason). */
export function refuseBadEnv(env: Partial<Env>) {
  const problems = envProblems(env);
  if (problems.length === 0) return;
  const text = problems.map((p) => `${p.variable}: ${p.message}`).join("; ");
  if (reported !== text) console.error(`Refusing to serve, the Worker's variables are wrong: ${text}`);
  reported = text;
  throw new ApiError(
    "internal",
    `Сервер не настроен: ${text}`,
    problems.map((p) => ({ field: p.variable, message: p.message })),
  );
}
