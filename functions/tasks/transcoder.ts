import { configOf } from "../lib/config";
import type { Env } from "../lib/env";

/**
 * The Worker's side of the transcoder's HTTP API (transcoder/README.md, docs/decisions/011-tasks-and-transcoder.md):
 *   POST   /tasks            a job (idempotent by id and run; a newer run replaces an older one)
 *   GET    /tasks/{id}       { id, run, state } or 404 when it does not hold the task
 *   DELETE /tasks/{id}       stop and forget it (pause, cancel)
 *   POST   /tasks/{id}/priority { priority }
 * A service binding (env.TRANSCODER) wins over TRANSCODER_URL: tests inject a fake that way.
 */
export const transcoderConfigured = (env: Env) => !!env.TRANSCODER || !!configOf(env).TRANSCODER_URL;

export async function transcoderFetch(env: Env, path: string, init: { method?: string; json?: unknown } = {}): Promise<Response> {
  const headers = new Headers({ Accept: "application/json" });
  if (init.json !== undefined) headers.set("Content-Type", "application/json");
  if (env.TRANSCODER_TOKEN) headers.set("Authorization", `Bearer ${env.TRANSCODER_TOKEN}`);
  const base = env.TRANSCODER ? "http://transcoder" : configOf(env).TRANSCODER_URL!;
  const request = new Request(`${base}${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  // A transcoder that hangs is as good as down: give up after 15 s so the message can be retried.
  const signal = AbortSignal.timeout(15_000);
  return await (env.TRANSCODER ? env.TRANSCODER.fetch(request, { signal }) : fetch(request, { signal }));
}

/** Best effort: pause, cancel and priority changes must not fail because the transcoder is away. */
export async function tellTranscoder(env: Env, path: string, init: { method?: string; json?: unknown } = {}) {
  if (!transcoderConfigured(env)) return;
  try {
    const res = await transcoderFetch(env, path, init);
    await res.body?.cancel();
  } catch (err) {
    console.warn("transcoder unreachable for", path, (err as Error).message);
  }
}
