import { z } from "@hono/zod-openapi";
import { providerSchema } from "../sso/config";
import { configuredServers } from "../uploads/servers";
import type { Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { minSecretBytes } from "../lib/keys";

/**
 * The Worker's variables, checked with zod before any route runs: a deploy with a missing or weak
 * JWT_SECRET, a malformed SSO_PROVIDERS, a URL that is not one or a transcoder that could not call
 * back answers every API request with one 500 naming the variables, instead of failing somewhere later.
 */

const blank = (v: string | undefined) => v === undefined || v.trim() === "";
const optionalUrl = z
  .string()
  .optional()
  .refine((v) => blank(v) || URL.canParse(v!.trim()), "не URL (нужен вид https://host)");
const optionalJson = <T extends z.ZodType>(schema: T, message: string) =>
  z
    .string()
    .optional()
    .refine((v) => {
      if (blank(v)) return true;
      try {
        return schema.safeParse(JSON.parse(v!)).success;
      } catch {
        return false;
      }
    }, message);

export const envSchema = z
  .object({
    JWT_SECRET: z
      .string({ error: "не задан" })
      .refine(
        (v) => new TextEncoder().encode(v).length >= minSecretBytes,
        `короче ${minSecretBytes} байт (например, openssl rand -base64 32)`,
      ),
    PUBLIC_URL: optionalUrl,
    TRANSCODER_URL: optionalUrl,
    MEDIA_ORIGIN: optionalUrl,
    DEFAULT_QUOTA_BYTES: z
      .string()
      .optional()
      .refine((v) => blank(v) || (Number.isSafeInteger(Number(v)) && Number(v) >= 0), "не целое число байт"),
    EVENTS_RETENTION_DAYS: z
      .string()
      .optional()
      .refine((v) => blank(v) || (Number.isInteger(Number(v)) && Number(v) > 0), "не целое положительное число дней"),
    UDWF_SEND_PER_HOUR: z
      .string()
      .optional()
      .refine((v) => blank(v) || (Number.isInteger(Number(v)) && Number(v) >= 0), "не целое неотрицательное число отправок в час"),
    UDWF_SEND_TEAM: z
      .string()
      .optional()
      .refine(
        (v) => blank(v) || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v?.trim() ?? ""),
        "не id группы (команды)",
      ),
    SSO_PROVIDERS: optionalJson(z.array(providerSchema), "не JSON-список провайдеров нужного вида (README, «Single sign-on»)"),
    UPLOAD_SERVERS: optionalJson(configuredServers, 'не JSON-список серверов загрузки вида [{"id", "url"}] (README, «Серверы загрузки»)'),
  })
  .refine((e) => blank(e.TRANSCODER_URL) || !blank(e.PUBLIC_URL), {
    path: ["PUBLIC_URL"],
    message: "нужен, когда задан TRANSCODER_URL (по нему транскодер получает файлы и отвечает)",
  });

// The bindings object lives as long as the isolate: it is checked once, not on every request.
const checkedEnvs = new WeakMap<object, string[]>();

/** What is wrong with the variables, one line per variable; empty when they are fine. */
export function envProblems(env: Partial<Env>): string[] {
  let problems = checkedEnvs.get(env);
  if (!problems) {
    const checked = envSchema.safeParse(env);
    problems = checked.success ? [] : checked.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    checkedEnvs.set(env, problems);
  }
  return problems;
}

let reported: string | undefined;

/** Throws the one 500 while the variables are wrong; the reason is logged once per isolate (and per new reason). */
export function refuseBadEnv(env: Partial<Env>) {
  const problems = envProblems(env);
  if (problems.length === 0) return;
  const text = problems.join("; ");
  if (reported !== text) console.error(`Refusing to serve, the Worker's variables are wrong: ${text}`);
  reported = text;
  throw new ApiError(
    "internal",
    `Сервер не настроен: ${text}`,
    problems.map((p) => ({ field: p.slice(0, p.indexOf(":")), message: p.slice(p.indexOf(":") + 2) })),
  );
}
