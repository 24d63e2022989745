import { fetchFresh } from "../shared/fetch-fresh";
import { ADMIN } from "./fixtures";

/** Seeding for the automations spec through the API from Node: a bearer, a group, a tag, an upload. */

const base = `http://127.0.0.1:${process.env.MAM_E2E_PORT ?? "8790"}`;

async function call(bearer: string, path: string, body?: unknown) {
  const res = await fetchFresh(base + path, {
    method: body === undefined ? "GET" : "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${bearer}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

export async function adminBearer(): Promise<string> {
  const res = await fetchFresh(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ user: ADMIN.login, passwd: ADMIN.password }),
  });
  return ((await res.json()) as { bearer: string }).bearer;
}

export const mkGroup = async (bearer: string, name: string): Promise<string> =>
  (await call(bearer, "/api/group/create", { parent: "ffffffff-ffff-ffff-ffff-ffffffffffff", group_name: name })).group_id;

export const mkTag = async (bearer: string, name: string): Promise<string> =>
  (await call(bearer, "/api/tags/create", { tag_name: name })).tag_id;

export const tagsOf = async (bearer: string, assetId: string): Promise<string[]> =>
  ((await call(bearer, `/api/asset/${assetId}`)).tags as { tag_name: string }[]).map((t) => t.tag_name);

/** An asset in `group` with a small file, through the client upload protocol (start, targets, PUT, complete). */
export async function uploadInto(bearer: string, group: string, name: string) {
  const bytes = new Uint8Array(4096).map((_, i) => (i * 31) % 256);
  const { asset_id } = await call(bearer, "/api/asset/create", { asset_name: name, asset_mime: "image/png", in_group: group });
  const up = await call(bearer, "/api/ul/start", { asset_id, size: bytes.length, name, mime: "image/png" });
  const targets = await call(bearer, `/api/ul/${up.upload_id}/targets`, { parts: Array.from({ length: up.part_count }, (_, i) => i + 1) });
  for (const t of targets as { part: number; url: string; size: number }[]) {
    const put = await fetchFresh(new URL(t.url, base), {
      method: "PUT",
      body: bytes.slice((t.part - 1) * up.part_size, (t.part - 1) * up.part_size + t.size),
    });
    if (!put.ok) throw new Error(`part ${t.part}: ${put.status}`);
    await put.arrayBuffer();
    await call(bearer, `/api/ul/${up.upload_id}/parts/${t.part}`, { etag: put.headers.get("ETag") });
  }
  await call(bearer, `/api/ul/${up.upload_id}/complete`, {});
  return asset_id as string;
}
