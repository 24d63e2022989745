import { Cron } from "croner";

/**
 * Schedules (trigger type "schedule"): a five-field cron expression in UTC. The Worker's cron (every 5 minutes,
 * wrangler.toml) starts the workflows whose next time has come (./dispatch.ts runDueSchedules), so a schedule
 * finer than that runs at most once per tick.
 */

/** Null when the expression is not a valid cron. */
export function cronError(expr: string): string | null {
  try {
    new Cron(expr, { timezone: "UTC", paused: true });
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

/** The first time after `afterSeconds` (Unix seconds) the expression names; null when it never does. */
export function nextCronTime(expr: string, afterSeconds: number): number | null {
  const next = new Cron(expr, { timezone: "UTC", paused: true }).nextRun(new Date(afterSeconds * 1000));
  return next ? Math.floor(next.getTime() / 1000) : null;
}
