import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "./env";
import { reportError } from "./error-reporting";

/** Every error code the API answers with, and its HTTP status: one table, one envelope. */
export const errorStatus = {
  bad_request: 400,
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  upgrade_required: 426,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof errorStatus;

export interface ErrorDetail {
  field: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
    /** What really went wrong, for the log only (e.g. a storage's own error text); never sent to the client. */
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

export function errorBody(code: ErrorCode, message: string, requestId: string, details?: ErrorDetail[]) {
  return { error: { code, message, ...(details ? { details } : {}), requestId } };
}

/** The single onError: ApiError as is, Hono's HTTPException (e.g. malformed JSON) mapped, the rest 500. */
export function handleError(err: Error, c: Context<AppEnv>) {
  const requestId = c.get("requestId") ?? "";
  if (err instanceof ApiError) {
    if (err.cause !== undefined) console.error(`[${requestId}] ${err.message}:`, err.cause);
    return c.json(errorBody(err.code, err.message, requestId, err.details), errorStatus[err.code], err.headers);
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    const code = (Object.keys(errorStatus) as ErrorCode[]).find((k) => errorStatus[k] === status) ?? "bad_request";
    const message = /malformed json/i.test(err.message) ? "Тело запроса — не корректный JSON" : err.message;
    return c.json(errorBody(code, message, requestId), status);
  }
  if (readOnlyStore(err)) {
    console.error(`[${requestId}] the database takes no writes:`, err);
    return c.json(errorBody("unavailable", READ_ONLY_MESSAGE, requestId), 503, { "Retry-After": "60" });
  }
  console.error(`[${requestId}]`, err);
  reportError(err, c.env, requestId);
  return c.json(errorBody("internal", "Внутренняя ошибка сервера", requestId), 500);
}

export const READ_ONLY_MESSAGE = "База данных сейчас доступна только для чтения: изменение не сохранено, повторите позже";

/**
 * A write refused because the database is read-only (a read-only file, a store in maintenance or over its quota):
 * SQLite's SQLITE_READONLY, wherever in the chain of causes drizzle and the driver put it. Reads still work, so
 * this is a 503 for the write, not a failure of the service.
 */
export function readOnlyStore(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === "SQLITE_READONLY" || /SQLITE_READONLY|readonly database/i.test(e.message)) return true;
  }
  return false;
}
