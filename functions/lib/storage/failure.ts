import { ApiError, type ErrorCode, type ErrorDetail } from "../errors";

/**
 * A storage call that failed, as the client sees it: a fixed Russian message. What the driver or the
 * bucket said (endpoints, bucket names, S3 error codes, network errors) goes to the log with the request
 * id (handleError logs the cause), never into the answer. An ApiError passes through unchanged.
 */
export function storageFailure(err: unknown, code: ErrorCode, message: string, details?: ErrorDetail[]): ApiError {
  return err instanceof ApiError ? err : new ApiError(code, message, details, undefined, err);
}
