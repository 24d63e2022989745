import type { JobMessage } from "../../queues/messages";

/** The Worker's bindings and variables (wrangler.toml, secrets), typed once. */
export interface Env {
  DB: D1Database;
  BUCKET: R2Bucket;
  JOBS: Queue<JobMessage>;
  ASSETS: Fetcher;
  /** HS256 key for bearer tokens; a secret in production, generated per data dir locally. */
  JWT_SECRET: string;
  ADMIN_LOGIN?: string;
  ADMIN_PASSWORD?: string;
  /** AES-256 key (base64, 32 bytes) for storage credentials at rest; derived from JWT_SECRET when unset. */
  STORAGE_KEY?: string;
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
