/**
 * `npm start` shows the Worker's and the transcoder's JSON log lines (functions/lib/request-line.ts,
 * transcoder/task-line.mjs) as short readable lines; MAM_LOG_JSON=1 keeps them as JSON. Anything else passes as is.
 */
import readline from "node:readline";

const short = (id) => (typeof id === "string" ? id.slice(0, 8) : "-");

/** @param {string} line */
export function readableLine(line) {
  if (!line.startsWith('{"type":')) return line;
  let o;
  try {
    o = JSON.parse(line);
  } catch {
    return line;
  }
  if (o.type === "request")
    return `${o.method} ${o.route} → ${o.status} in ${o.duration_ms} ms${o.user_id ? ` · user ${short(o.user_id)}` : ""} · req ${short(o.request_id)}`;
  if (o.type === "task")
    return `task ${short(o.task_id)} run ${o.run} ${o.operation} (${o.lane}) → ${o.outcome} in ${o.duration_ms} ms, waited ${o.queued_ms} ms`;
  return line;
}

/**
 * Copies `input` to `output` line by line, readable unless MAM_LOG_JSON=1.
 * @param {import("node:stream").Readable} input
 * @param {NodeJS.WritableStream} output
 */
export function pipeLines(input, output) {
  const json = process.env.MAM_LOG_JSON === "1";
  readline.createInterface({ input, crlfDelay: Infinity }).on("line", (line) => output.write(`${json ? line : readableLine(line)}\n`));
}
