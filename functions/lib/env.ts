import type { JobMessage } from "../../queues/messages";

/** The Worker's bindings and variables (wrangler.toml, secrets), typed once. */
export interface Env {
  /** The transcoder's base URL (transcoder/); empty: tasks are created but wait in the queue. */
  TRANSCODER_URL?: string;
  /** Shared secret the Worker sends the transcoder (Authorization: Bearer), so only it can submit work. */
  TRANSCODER_TOKEN?: string;
  /** This Worker's public origin, for the signed URLs and callbacks handed to the transcoder. */
  PUBLIC_URL?: string;
  /**
   * Optional origin (e.g. https://media.example.com, another route to this Worker) that play links are
   * built on, so user bytes never share the app's origin and cookies; it serves nothing but /api/media.
   */
  MEDIA_ORIGIN?: string;
  /**
   * JSON list of other upload servers, [{"id", "url"}] (functions/uploads/servers.ts): deployments of this Worker on
   * other hosts; the client uploads to the one that answers fastest. Unset: this Worker only.
   */
  UPLOAD_SERVERS?: string;
  /** Comma-separated app origins whose pages may upload to this Worker from another origin (CORS on /api/ul). */
  UPLOAD_APP_ORIGINS?: string;
  /** Optional service binding to the transcoder (tests inject a fake; production may bind a service). */
  TRANSCODER?: Pick<Fetcher, "fetch">;
  /** Base of the retry backoff for task hand-overs, seconds (default 5: 5, 10, 20, 40, 80). */
  TASK_RETRY_BASE_SECONDS?: string;
  /** How often a handed-over task is checked with the transcoder, seconds (default 30). */
  TASK_WATCH_SECONDS?: string;
  DB: D1Database;
  /**
   * A libSQL database (Turso, or any libSQL server: libsql://…, https://…) used instead of the DB binding for
   * metadata (functions/lib/db.ts, docs/decisions/049); unset: D1.
   */
  LIBSQL_URL?: string;
  LIBSQL_AUTH_TOKEN?: string;
  BUCKET: R2Bucket;
  JOBS: Queue<JobMessage>;
  /** The live review rooms, one Durable Object per asset (functions/review/live-room.ts); unset, nothing is pushed. */
  REVIEW_ROOM?: DurableObjectNamespace;
  ASSETS: Fetcher;
  /** HS256 key for bearer tokens; a secret in production, generated per data dir locally. */
  JWT_SECRET: string;
  ADMIN_LOGIN?: string;
  ADMIN_PASSWORD?: string;
  /** AES-256 key (base64, 32 bytes) for storage credentials at rest; derived from JWT_SECRET when unset. */
  STORAGE_KEY?: string;
  /** Optional Cloudflare email sending binding (share links mail their recipients); unset locally = console. */
  EMAIL?: SendEmail;
  EMAIL_FROM?: string;
  /** Bytes a user may store when no quota of their own is set (functions/lib/quota.ts); unset = unlimited. */
  DEFAULT_QUOTA_BYTES?: string;
  /** Days events are kept (the cron deletes older ones in batches, functions/events/retention.ts); unset = all. */
  EVENTS_RETENTION_DAYS?: string;
  /** JSON list of OpenID Connect providers (functions/sso/config.ts, README "Single sign-on"); unset = none. */
  SSO_PROVIDERS?: string;
  /** Optional outbound fetch for the providers' HTTP (tests put a fake provider here); unset = global fetch. */
  SSO_FETCH?: Pick<Fetcher, "fetch">;
  /**
   * An OpenAI-compatible embeddings endpoint (POST {model, input} → {data: [{embedding}]}) for semantic search
   * (functions/search/vector.ts); unset: semantic search answers "not configured".
   */
  EMBEDDINGS_URL?: string;
  /**
   * An OpenAI-compatible /v1/audio/transcriptions endpoint for the task «Расшифровка»; the transcoder calls it, the
   * Worker only tells whether recognition is configured (functions/tasks/recognize.ts). Unset: 503.
   */
  TRANSCRIBE_URL?: string;
  EMBEDDINGS_MODEL?: string;
  EMBEDDINGS_KEY?: string;
  /** Optional outbound fetch for the embeddings endpoint (tests put a fake model here); unset = global fetch. */
  EMBEDDINGS_FETCH?: Pick<Fetcher, "fetch">;
  /**
   * Workers AI (wrangler.toml): embeds for semantic search when no EMBEDDINGS_URL is set (functions/search/vector-cloud.ts),
   * and recognises speech for «Расшифровка» when no TRANSCRIBE_URL is set (functions/transcripts/workers-ai.ts).
   */
  AI?: import("./bindings").WorkersAiLike;
  /** Vectorize (wrangler.toml): keeps and searches the vectors instead of search_vectors when bound. */
  VECTORIZE?: import("./bindings").VectorizeLike;
  /**
   * An OpenAI-compatible chat endpoint (POST {model, messages} → {choices: [{message: {content}}]}) that writes search
   * answers from the found assets (functions/search/chat.ts); unset: answers are extractive.
   */
  CHAT_URL?: string;
  CHAT_MODEL?: string;
  CHAT_KEY?: string;
  /** Optional outbound fetch for the chat endpoint (tests put a fake model here); unset = global fetch. */
  CHAT_FETCH?: Pick<Fetcher, "fetch">;
  /** Optional Workers Analytics Engine dataset: one data point per API request (functions/middleware/observe.ts). */
  METRICS?: AnalyticsEngineDataset;
  /**
   * An office server speaking WOPI (Collabora Online/CODE, ONLYOFFICE Docs, Office Online Server), e.g.
   * http://localhost:9980: its /hosting/discovery maps file types to its editor (functions/wopi/discovery.ts).
   * Unset: text documents open in the built-in editor, office formats explain how to connect one.
   */
  WOPI_CLIENT_URL?: string;
  /** Optional outbound fetch for the office server's discovery (tests put a fake server here); unset = global fetch. */
  WOPI_FETCH?: Pick<Fetcher, "fetch">;
  /** Stripe Checkout for the shop (functions/shop/stripe.ts): both set = Stripe is offered; unset = manual payment only. */
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  /** Optional outbound fetch for Stripe's API (tests answer it locally); unset = global fetch. */
  STRIPE_FETCH?: Pick<Fetcher, "fetch">;
  /** "true": automations may call webhooks on loopback and private addresses (`npm start` sets it; functions/udwf/webhook.ts). */
  WEBHOOK_ALLOW_PRIVATE?: string;
  /**
   * The outbound service automation webhooks connect through: one that reaches public addresses only (workerd's
   * network service with allow = ["public"]; scripts/workerd.mjs binds it). Unset (Cloudflare, whose egress refuses
   * private addresses itself): the normal fetch, after the address checks of functions/udwf/webhook.ts.
   */
  WEBHOOK_FETCH?: Pick<Fetcher, "fetch">;
  /** Sends (mails, webhook calls) a non-admin owner's automations may make per hour (default 1000; functions/udwf/sending.ts). */
  UDWF_SEND_PER_HOUR?: string;
  /** A team (group id): when set, only its members and admins may have automations that mail or call webhooks. */
  UDWF_SEND_TEAM?: string;
  /** Base of the backoff of automation runs' retries, seconds (default 5: 5, 10, 20, 40, 80). */
  UDWF_RETRY_BASE_SECONDS?: string;
  /** Sentry DSN (functions/lib/error-reporting.ts); unset = nothing is reported anywhere. */
  SENTRY_DSN?: string;
}

export interface AuthUser {
  userId: string;
  userName: string;
  login: string;
  isAdmin: boolean;
  isRobot: boolean;
  chrootGroups: string[];
  sessionId: string;
}

export interface AppVariables {
  requestId: string;
  auth: AuthUser;
}

export type AppEnv = { Bindings: Env; Variables: AppVariables };
