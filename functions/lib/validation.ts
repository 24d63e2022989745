import type { Hook } from "@hono/zod-openapi";
import type { ZodError } from "zod";
import type { AppEnv } from "./env";
import { ApiError, type ErrorDetail } from "./errors";

/** Turns zod issues into details that name the offending field, in Russian for the toast. */
export function describeZodError(error: ZodError): ErrorDetail[] {
  return error.issues.map((issue) => {
    const field = issue.path.join(".") || "(тело запроса)";
    const missing = issue.code === "invalid_type" && /undefined/.test(issue.message);
    return { field, message: missing ? "обязательное поле" : issue.message };
  });
}

/** The 400 for input that names its bad fields: every detail in `details`, the first five in the message. */
export function invalidFields(details: ErrorDetail[]): ApiError {
  const summary = details
    .slice(0, 5)
    .map((d) => `«${d.field}»: ${d.message}`)
    .join("; ");
  return new ApiError("validation", `Неверные данные: ${summary}${details.length > 5 ? "; …" : ""}`, details);
}

export function validationError(error: ZodError): ApiError {
  return invalidFields(describeZodError(error));
}

/** defaultHook of every OpenAPIHono: a failed zod parse becomes the one error envelope (400). */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (!result.success) throw validationError(result.error as ZodError);
};
