import type { RouteConfig, z } from "@hono/zod-openapi";
import * as auth from "../../shared/auth/contract";
import { ru } from "../i18n/ru";
import { clearTokens, expiresSoon, sessionStore, setTokens } from "./session";
import { noteBookmarkOf, withBookmark } from "./db-bookmark";

export const API_ROOT = "/api";

/** The API's error envelope: `{ error: { code, message, details?, requestId } }`. */
export interface ErrorEnvelope {
  error: { code: string; message: string; details?: unknown[]; requestId?: string };
}

function isErrorEnvelope(body: unknown): body is ErrorEnvelope {
  const error = (body as ErrorEnvelope | null)?.error;
  return typeof error === "object" && error !== null && typeof error.message === "string";
}

/** A failed response, thrown with its body (the error toast shows its message). Status 0: the server was not reached. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }

  get envelope(): ErrorEnvelope["error"] | null {
    return isErrorEnvelope(this.body) ? this.body.error : null;
  }

  get code(): string | undefined {
    return this.envelope?.code;
  }

  get requestId(): string | undefined {
    return this.envelope?.requestId;
  }
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Plain objects and arrays go as JSON (the default content type); FormData, Blob, strings etc. as they are. */
  body?: unknown;
  query?: Record<string, QueryValue>;
  headers?: HeadersInit;
  signal?: AbortSignal;
  /**
   * Sent without a bearer: call() sets it for the routes whose definition says `security: []` (sign-in, refresh,
   * logout, single sign-on), the same definition the server reads. Every other call sends the bearer.
   */
  open?: boolean;
}

function isJsonBody(body: unknown): boolean {
  if (body === null || typeof body !== "object") return false;
  return Array.isArray(body) || Object.getPrototypeOf(body) === Object.prototype;
}

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== null && value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return `${API_ROOT}${path}${search ? (path.includes("?") ? "&" : "?") + search : ""}`;
}

/** JSON when the server says so, text otherwise, null for an empty body. */
async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const text = await response.text();
  if (!text) return null;
  if ((response.headers.get("Content-Type") ?? "").includes("json")) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function failureMessage(response: Response, body: unknown): string {
  if (isErrorEnvelope(body)) return body.error.message;
  const detail = response.statusText || (typeof body === "string" ? body.trim().slice(0, 200) : "");
  return ru.errors.http(response.status, detail || ru.errors.unknown);
}

/** Sends a request as-is and returns the successful Response; failures are thrown as ApiError. */
export async function apiFetch(path: string, options: RequestOptions = {}): Promise<Response> {
  const open = options.open ?? false;
  if (!open) await ensureFreshToken();

  const headers = new Headers(options.headers);
  headers.set("X-Client-Version", __BUILD_ID__);
  withBookmark(headers);
  const bearer = sessionStore.get().tokens?.bearer;
  if (!open && bearer) headers.set("Authorization", `Bearer ${bearer}`);

  let body = options.body as BodyInit | undefined;
  if (isJsonBody(options.body)) {
    body = JSON.stringify(options.body);
    if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  }
  if (!headers.has("Accept")) headers.set("Accept", "application/json");

  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method: options.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      body,
      signal: options.signal,
      credentials: "same-origin",
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError(0, null, ru.errors.network);
  }

  noteBookmarkOf(response);
  if (!response.ok) {
    const errorBody = await readBody(response);
    // A 401 for a bearer that has since been replaced (a refresh raced this call) says nothing about the new one.
    if (response.status === 401 && (open || sessionStore.get().tokens?.bearer === bearer)) clearTokens();
    throw new ApiError(response.status, errorBody, failureMessage(response, errorBody));
  }
  return response;
}

/** The usual call: the parsed body of a successful response. */
export async function api<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await readBody(await apiFetch(path, options))) as T;
}

/** A route's JSON answer on success (its 200, else 201), as `z.output` of the declared schema; 204: null. */
export type Answer<R extends RouteConfig> = 200 extends keyof R["responses"]
  ? JsonOf<R["responses"][200]>
  : 201 extends keyof R["responses"]
    ? JsonOf<R["responses"][201]>
    : 204 extends keyof R["responses"]
      ? null
      : unknown;
type JsonOf<C> = C extends { content: { "application/json": { schema: infer S extends z.ZodType } } } ? z.output<S> : unknown;

type InputOf<S> = S extends z.ZodType ? z.input<S> : never;
/** A part is optional when everything in it is. */
type Part<K extends string, T> = [T] extends [never]
  ? { [P in K]?: never }
  : Record<never, never> extends T
    ? { [P in K]?: T }
    : { [P in K]: T };
type BodyOf<B> = B extends { content: infer C }
  ? "application/json" extends keyof C
    ? C["application/json"] extends { schema: infer S }
      ? // A schema the server types as never (a union built at run time): any body, the server checks it.
        [InputOf<S>] extends [never]
        ? unknown
        : InputOf<S>
      : never
    : BodyInit
  : never;

/** What `call(route, input)` takes: the route's path parameters, query and body by its own schemas. */
export type CallInput<R extends RouteConfig> = Part<"params", InputOf<NonNullable<R["request"]>["params"]>> &
  Part<"query", InputOf<NonNullable<R["request"]>["query"]>> &
  Part<"body", BodyOf<NonNullable<R["request"]>["body"]>> & { signal?: AbortSignal; headers?: HeadersInit };

/** The input is optional when every part of it is. */
type CallArgs<R extends RouteConfig> = Record<never, never> extends CallInput<R> ? [input?: CallInput<R>] : [input: CallInput<R>];

/** The route's path with its `{param}`s filled in (encoded). */
export function routePath(route: Pick<RouteConfig, "path">, params?: Record<string, unknown>): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`${route.path}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
}

/** The path and options of a call to a route (the input's parts go where the route declares them). */
function routeRequest(route: RouteConfig, input: unknown): [string, RequestOptions] {
  const { params, query, body, signal, headers } = (input ?? {}) as {
    params?: Record<string, unknown>;
    query?: Record<string, QueryValue>;
    body?: unknown;
    signal?: AbortSignal;
    headers?: HeadersInit;
  };
  const method = route.method.toUpperCase() as NonNullable<RequestOptions["method"]>;
  const open = Array.isArray(route.security) && route.security.length === 0;
  return [routePath(route, params), { method, query, body, signal, headers, open }];
}

/**
 * Calls a route of the API by its definition (a resource's shared/<resource>/contract.ts, docs/decisions/070):
 * path, method, whether it goes without a bearer, and the input and answer types all come from the object the
 * server serves, so a renamed parameter or a changed answer fails the typecheck here. Goes through `api()`.
 */
export function call<R extends RouteConfig>(route: R, ...[input]: CallArgs<R>): Promise<Answer<R>> {
  return api<Answer<R>>(...routeRequest(route, input));
}

/** Calls a route and returns the successful Response as is (byte answers, headers); see call(). */
export function callFetch<R extends RouteConfig>(route: R, ...[input]: CallArgs<R>): Promise<Response> {
  return apiFetch(...routeRequest(route, input));
}

let refreshing: Promise<boolean> | null = null;

/**
 * The refresh cookie rotates, and a secret used twice counts as token theft (the server then ends the
 * session, docs/decisions/005). So refreshes are serialised across tabs with a Web Lock; a tab that waited
 * for the lock first looks whether the tab before it has already shared a fresh bearer (session.ts's
 * BroadcastChannel) and takes that instead of rotating again (docs/decisions/022).
 */
async function refreshUnderLock(): Promise<boolean> {
  const bearerBefore = sessionStore.get().tokens?.bearer;
  const refresh = async () => {
    const current = sessionStore.get().tokens;
    if (current && current.bearer !== bearerBefore && !expiresSoon(current)) return true;
    const tokens = await call(auth.refresh);
    setTokens({ bearer: tokens.bearer, expire: tokens.expire ?? null });
    return true;
  };
  const locks = typeof navigator === "undefined" ? undefined : navigator.locks;
  return locks ? locks.request("mam.auth.refresh", refresh) : refresh();
}

/**
 * GET /api/auth/refresh with the httpOnly cookie; concurrent callers in this tab share one request.
 * Any failure clears the tokens (the user signs in again). Resolves true when a new bearer is in hand.
 */
export function refreshTokens(): Promise<boolean> {
  refreshing ??= refreshUnderLock()
    .catch(() => {
      clearTokens();
      return false;
    })
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/** Refreshes the bearer when it expires within the margin (120 s, REFRESH_MARGIN_SECONDS); a no-op without a bearer. */
export async function ensureFreshToken(): Promise<void> {
  if (refreshing) {
    await refreshing;
    return;
  }
  const { tokens } = sessionStore.get();
  if (tokens && expiresSoon(tokens)) await refreshTokens();
}
