import { z } from "zod";
import type { Env } from "./env";
import { minSecretBytes } from "./keys";
import { toProviderConfig, providerSchema, type SsoProviderConfig } from "./sso-providers";
import { configuredServers, WORKER_SERVER_ID } from "../../shared/lib/upload-server";

/**
 * The Worker's string variables (functions/lib/env.ts documents each), parsed once per env object into a typed
 * `Config` with their defaults (docs/decisions/069-config-and-queue-registry.md). Bindings and secrets used as they
 * are (DB, JOBS, JWT_SECRET, STORAGE_KEY, LIBSQL_URL, Stripe's keys…) stay on env.
 *
 * A variable can be wrong in two ways the Worker treats differently, as it always has: the env check
 * (functions/middleware/env-check.ts) refuses every API request while one is, naming it with the message here, but
 * pages, queue messages and crons still run and use the variable's `meanwhile` value (unset, the default, or the
 * lenient reading each module used to make). Config keys are the variables' own names, so README and wrangler.toml
 * stay grep-able to their readers.
 */

/** Unset and blank mean the same: wrangler.toml and .dev.vars write "not set" both ways. */
const textOf = (raw: unknown) => (typeof raw === "string" ? raw.trim() || undefined : undefined);
const optionalText = z.string().optional().transform(textOf);

/**
 * A checked variable: `read` turns its text (undefined when unset or blank) into the value, or fails with the
 * message the env check shows; while it fails the Worker uses `meanwhile`.
 */
const checked = <T>(
  read: z.ZodType<T, string | undefined>,
  meanwhile: (text: string | undefined, issues: readonly { message: string }[]) => T,
) => optionalText.pipe(read).catch((ctx) => meanwhile(textOf(ctx.input), ctx.error.issues));

/** A variable that is never refused: any text reads as some value (the default for what makes no sense). */
const lenient = <T>(read: (text: string | undefined) => T) =>
  z
    .unknown()
    .optional()
    .transform((raw) => read(textOf(raw)));

const NOT_URL = "не URL (нужен вид https://host)";
const withoutTrailingSlashes = (text: string | undefined) => text?.replace(/\/+$/, "");
const originOf = (text: string | undefined) => (text && URL.canParse(text) ? new URL(text).origin : null);
const url = z
  .string()
  .optional()
  .refine((v) => v === undefined || URL.canParse(v), NOT_URL);

/** A whole number of at least `min`, `fallback` when unset. */
const wholeNumber = <F extends number | null>(min: number, message: string, fallback: F) =>
  z
    .string()
    .optional()
    .refine((v) => v === undefined || (Number.isSafeInteger(Number(v)) && Number(v) >= min), message)
    .transform((v) => (v === undefined ? fallback : Number(v)));

/** JSON of `schema`; any failure is the one `message` (the schema's own issues would name JSON paths, not the fix). */
const jsonOf = <T>(schema: z.ZodType<T>, message: string) =>
  z
    .string()
    .transform((text, ctx) => {
      try {
        const parsed = schema.safeParse(JSON.parse(text));
        if (parsed.success) return parsed.data;
      } catch {}
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    })
    .optional();

/**
 * A retry backoff's base in seconds: a number of at least 0 ("0" retries at once, as the API tests run). Unset,
 * blank or not such a number: `fallback` (a blank or a word used to give a delay of 0 or NaN).
 */
const seconds = (fallback: number) =>
  lenient((text) => (text !== undefined && Number.isFinite(Number(text)) && Number(text) >= 0 ? Number(text) : fallback));

const ssoProviders = (list: z.output<typeof providerSchema>[]): SsoProviderConfig[] => {
  // Two providers of one name would make the callback ambiguous: single sign-on stays off until it is fixed.
  if (new Set(list.map((p) => p.name)).size !== list.length) {
    console.error("SSO_PROVIDERS is not valid; single sign-on is off: duplicate provider names");
    return [];
  }
  return list.map(toProviderConfig);
};

const variables = {
  PUBLIC_URL: checked(url.transform(withoutTrailingSlashes), withoutTrailingSlashes),
  TRANSCODER_URL: checked(url.transform(withoutTrailingSlashes), withoutTrailingSlashes),
  /** The origin play links are built on; null when unset or not a URL. */
  MEDIA_ORIGIN: checked(url.transform(originOf), () => null),
  /** null: unlimited. While it is wrong, functions/lib/quota.ts refuses uploads instead of allowing any size. */
  DEFAULT_QUOTA_BYTES: checked(wholeNumber(0, "не целое число байт", null), () => null),
  /** null: events are kept for ever. While it is wrong, any positive number still counts (the cron's old reading). */
  EVENTS_RETENTION_DAYS: checked(wholeNumber(1, "не целое положительное число дней", null), (text) =>
    Number.isFinite(Number(text)) && Number(text) > 0 ? Number(text) : null,
  ),
  UDWF_SEND_PER_HOUR: checked(wholeNumber(0, "не целое неотрицательное число отправок в час", 1000), () => 1000),
  /** A group id; while it is not one, it is still compared with the owner's teams (so it matches none). */
  UDWF_SEND_TEAM: checked(
    z
      .string()
      .optional()
      .refine(
        (v) => v === undefined || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v),
        "не id группы (команды)",
      ),
    (text) => text,
  ),
  SSO_PROVIDERS: checked(
    jsonOf(z.array(providerSchema), "не JSON-список провайдеров нужного вида (README, «Single sign-on»)").transform((list) =>
      ssoProviders(list ?? []),
    ),
    (text, issues) => {
      if (text) console.error("SSO_PROVIDERS is not valid; single sign-on is off:", issues[0]?.message);
      return [];
    },
  ),
  /** The other upload servers; this Worker's own id is skipped (it is always listed first anyway). */
  UPLOAD_SERVERS: checked(
    jsonOf(configuredServers, 'не JSON-список серверов загрузки вида [{"id", "url"}] (README, «Серверы загрузки»)').transform((list) =>
      (list ?? []).filter((s) => s.id !== WORKER_SERVER_ID),
    ),
    () => [],
  ),
  /** The origins of the comma-separated list; what is not a URL is skipped. */
  UPLOAD_APP_ORIGINS: lenient((text) =>
    (text ?? "")
      .split(",")
      .map((o) => o.trim())
      .filter((o) => URL.canParse(o))
      .map((o) => new URL(o).origin),
  ),
  TASK_RETRY_BASE_SECONDS: seconds(5),
  UDWF_RETRY_BASE_SECONDS: seconds(5),
  /** Unset, 0 or not a number: 30 (a watch every 0 s would poll the transcoder without pause). */
  TASK_WATCH_SECONDS: lenient((text) => Number(text) || 30),
  WEBHOOK_ALLOW_PRIVATE: lenient((text) => text === "true"),
  TRANSCRIBE_URL: lenient((text) => text),
  EMBEDDINGS_URL: lenient((text) => text),
  /** Unset: each embedder's own default (functions/search/vector.ts). */
  EMBEDDINGS_MODEL: lenient((text) => text),
  CHAT_URL: lenient((text) => text),
  CHAT_MODEL: lenient((text) => text ?? "default"),
  WOPI_CLIENT_URL: lenient((text) => text),
  EMAIL_FROM: lenient((text) => text ?? "noreply@mam.local"),
  ADMIN_LOGIN: lenient((text) => text ?? "admin"),
};

/** The variables, typed: what every module reads instead of env's strings. */
export type Config = { [K in keyof typeof variables]: z.output<(typeof variables)[K]> };

const JWT_SECRET = z
  .string({ error: "не задан" })
  .refine((v) => new TextEncoder().encode(v).length >= minSecretBytes, `короче ${minSecretBytes} байт (например, openssl rand -base64 32)`);

/** The same variables without their `meanwhile`, plus the secret's strength and the rules between variables: what the env check reports. */
const strictVariables = z
  .object({
    JWT_SECRET,
    ...(Object.fromEntries(
      Object.entries(variables).map(([name, schema]) => [name, schema instanceof z.ZodCatch ? schema.unwrap() : schema]),
    ) as Record<string, z.ZodType>),
  })
  .refine((e: Record<string, unknown>) => e.TRANSCODER_URL === undefined || e.PUBLIC_URL !== undefined, {
    path: ["PUBLIC_URL"],
    message: "нужен, когда задан TRANSCODER_URL (по нему транскодер получает файлы и отвечает)",
  });

export interface EnvProblem {
  variable: string;
  message: string;
}

// workerd hands every request of an isolate the same env object: it is parsed once, not per request.
const parsedEnvs = new WeakMap<object, { config: Config; problems: EnvProblem[] }>();

function parsed(env: object) {
  let found = parsedEnvs.get(env);
  if (!found) {
    const checks = strictVariables.safeParse(env);
    found = {
      config: z.object(variables).parse(env),
      problems: checks.success ? [] : checks.error.issues.map((i) => ({ variable: i.path.join("."), message: i.message })),
    };
    parsedEnvs.set(env, found);
  }
  return found;
}

/** The typed variables of this env (a Worker's env, or any object of variables in tests). */
export const configOf = (env: Partial<Env> | object): Config => parsed(env).config;

/**
 * A copy of env with other bindings (a D1 session in place of DB): its variables are env's, so the copy shares
 * env's parsing instead of parsing again on every request that makes one.
 */
export function withBindings<E extends object>(env: E, bindings: Partial<E>): E {
  const copy = { ...env, ...bindings };
  parsedEnvs.set(copy, parsed(env));
  return copy;
}

/** What is wrong with the variables, one entry per problem; empty when they are fine. */
export const envProblems = (env: Partial<Env> | object): EnvProblem[] => parsed(env).problems;
