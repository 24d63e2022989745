import { type LogLine, taskLog } from "./jobs-api";

/** The most lines a log screen keeps (the oldest go first). */
const KEEP_LINES = 5000;

/** The log lines of one task read so far; a screen polling that task asks the API only for lines after them. */
let read: { jobId: string; lines: LogLine[] } = { jobId: "", lines: [] };

/**
 * The task's log as far as it is written: the lines read before and those after the last one's seq. Lines
 * never change once written, so the loader of the task's screen can poll this every second cheaply.
 */
export async function logSoFar(jobId: string, signal?: AbortSignal): Promise<LogLine[]> {
  if (read.jobId !== jobId) read = { jobId, lines: [] };
  const more = await taskLog(jobId, read.lines.at(-1)?.seq ?? 0, signal);
  // Two loads may overlap (a command's reload and a tick): keep each line once.
  const last = read.lines.at(-1)?.seq ?? 0;
  const fresh = more.filter((line) => line.seq > last);
  if (read.jobId === jobId && fresh.length) read = { jobId, lines: [...read.lines, ...fresh].slice(-KEEP_LINES) };
  return read.lines;
}
