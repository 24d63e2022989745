import { api } from "./helpers";

/** Walks the OpenAPI document: every operation, with a concrete path to call it on. */

export interface Operation {
  method: string;
  /** The templated path under /api, e.g. /api/sl/{id}/play. */
  path: string;
  /** The definition says `security: []`: served without a bearer. */
  open: boolean;
}

type Doc = { security?: unknown[]; paths: Record<string, Record<string, { security?: unknown[] }>> };

/** The document's operations, and the answer that carried it (for its headers). */
export async function operations(bearer: string): Promise<{ res: Response; ops: Operation[] }> {
  const res = await api("/api/openapi.json", { bearer });
  if (res.status !== 200) throw new Error(`openapi.json: ${res.status}`);
  const doc = (await res.json()) as Doc;
  const ops = Object.entries(doc.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, op]) => ({
      method: method.toUpperCase(),
      path: path.startsWith("/api/") ? path : `/api${path}`,
      open: (op.security ?? doc.security ?? []).length === 0,
    })),
  );
  return { res, ops };
}

export const randomLinkId = () =>
  Array.from(
    crypto.getRandomValues(new Uint8Array(22)),
    (b) => "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"[b % 62],
  ).join("");

/** The path with each {param} replaced by a random id of the shape the route expects. */
export const concrete = (path: string) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) =>
    /^(n|part)$/.test(name) ? "1" : path.startsWith("/api/sl/{id}") ? randomLinkId() : crypto.randomUUID(),
  );
