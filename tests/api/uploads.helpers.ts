import { api } from "./helpers";

/** Client side of the upload protocol, as the front end's upload worker speaks it. */
export function randomBytes(size: number, seed = 1) {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i += 65536) crypto.getRandomValues(out.subarray(i, Math.min(size, i + 65536)));
  out[0] = seed;
  return out;
}

export async function sha256(data: ArrayBuffer | Uint8Array) {
  const d = await crypto.subtle.digest("SHA-256", data as BufferSource);
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function json<T = any>(res: Response | Promise<Response>): Promise<T> {
  const r = await res;
  const text = await r.text();
  if (!r.ok) throw new Error(`${r.status}: ${text}`);
  return JSON.parse(text) as T;
}

export async function createAsset(bearer: string, body: Record<string, unknown> = {}) {
  return json<{ asset_id: string; ctime: number }>(
    api("/api/asset/create", { method: "POST", bearer, json: { asset_name: "clip.mp4", asset_mime: "video/mp4", ...body } }),
  );
}

export const startUpload = (bearer: string, body: Record<string, unknown>) => api("/api/ul/start", { method: "POST", bearer, json: body });

/** Puts the given parts (targets, PUT, report), as the browser does; returns the PUT responses. */
export async function putParts(bearer: string, uploadId: string, data: Uint8Array, partSize: number, parts: number[]) {
  const targets = await json<{ part: number; url: string; size: number }[]>(
    api(`/api/ul/${uploadId}/targets`, { method: "POST", bearer, json: { parts } }),
  );
  for (const t of targets) {
    const chunk = data.slice((t.part - 1) * partSize, (t.part - 1) * partSize + t.size);
    const res = await fetchTarget(t.url, chunk);
    if (!res.ok) throw new Error(`part ${t.part}: ${res.status} ${await res.text()}`);
    const etag = res.headers.get("ETag")!;
    await res.arrayBuffer();
    await json(api(`/api/ul/${uploadId}/parts/${t.part}`, { method: "POST", bearer, json: { etag } }));
  }
  return targets;
}

/** Worker targets go to the Worker under test; presigned ones straight to the S3 server. */
export async function fetchTarget(url: string, body: Uint8Array) {
  const init: RequestInit = { method: "PUT", body: body as BodyInit, headers: { "Content-Length": String(body.length) } };
  return new URL(url).pathname.startsWith("/api/") ? api(url, init) : fetch(url, init);
}

export async function uploadFile(bearer: string, assetId: string, data: Uint8Array, extra: Record<string, unknown> = {}) {
  const up = await json(startUpload(bearer, { asset_id: assetId, size: data.length, name: "clip.mp4", mime: "video/mp4", ...extra }));
  await putParts(
    bearer,
    up.upload_id,
    data,
    up.part_size,
    Array.from({ length: up.part_count }, (_, i) => i + 1),
  );
  const done = await json(api(`/api/ul/${up.upload_id}/complete`, { method: "POST", bearer }));
  return { upload: up, done };
}
