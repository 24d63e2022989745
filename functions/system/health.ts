import { sql } from "drizzle-orm";
import { getDb } from "../lib/db";
import type { Env } from "../lib/env";
import { transcoderConfigured, transcoderFetch } from "../tasks/transcoder";

const answer = (p: Promise<unknown>) =>
  p.then(
    () => "ok" as const,
    () => "error" as const,
  );

/** A health check must answer fast: a transcoder silent for this long counts as down. */
const TRANSCODER_TIMEOUT_MS = 3000;

/** The transcoder's GET /health (transcoder/http.mjs): "off" when none is configured (tasks wait in the queue). */
async function transcoderState(env: Env): Promise<"ok" | "error" | "off"> {
  if (!transcoderConfigured(env)) return "off";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timeout")), TRANSCODER_TIMEOUT_MS);
  });
  const check = transcoderFetch(env, "/health").then(async (res) => {
    await res.body?.cancel();
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
  });
  return answer(Promise.race([check, timeout])).finally(() => clearTimeout(timer));
}

interface Backlog {
  inqueue: number;
  running: number;
  failed: number;
}

/** The task queue's backlog from the tasks table: waiting, running, and failed (the dead letters, decision 011). */
async function backlog(env: Env): Promise<Backlog | null> {
  const rows = await getDb(env)
    .all<{ status: string; n: number }>(
      sql`SELECT status, count(*) AS n FROM tasks WHERE status IN ('inqueue', 'running', 'error') GROUP BY status`,
    )
    .catch(() => null);
  if (!rows) return null;
  const n = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
  return { inqueue: n("inqueue"), running: n("running"), failed: n("error") };
}

/**
 * GET /api/health. `status` still follows D1 and R2 alone (what it always meant): a transcoder that is away delays
 * tasks but serves everything else, so it is reported beside them, not folded into a 503.
 */
export async function health(env: Env) {
  const [d1, r2, transcoder, queue] = await Promise.all([
    answer(getDb(env).run(sql`SELECT 1`)),
    answer(env.BUCKET.head("health-check")),
    transcoderState(env),
    backlog(env),
  ]);
  const ok = d1 === "ok" && r2 === "ok";
  return { status: ok ? ("ok" as const) : ("degraded" as const), d1, r2, transcoder, queue };
}
