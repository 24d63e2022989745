import { env } from "cloudflare:test";
import type { Env } from "../../functions/lib/env";
import { admin, grant, mkGroup, mkPerson, VIRTUAL_ROOT, type Person } from "./fixtures";
import { api } from "./helpers";
import { createAsset, json, uploadFile } from "./uploads.helpers";

/** The WOPI client's side of the API tests: tokens from the token route, then file calls by ?access_token=. */

export const text = (s: string) => new TextEncoder().encode(s);

export interface Desk {
  group: string;
  editor: Person;
  reader: Person;
  /** read + download, no update. */
  viewer: Person;
}

/** A fresh group with an editor (read, update, create), a reader (read) and a viewer (read, download). */
export async function desk(): Promise<Desk> {
  const group = await mkGroup(VIRTUAL_ROOT);
  const [editor, reader, viewer] = await Promise.all([mkPerson(), mkPerson(), mkPerson()]);
  await grant(editor.id, group, ["read", "update", "create", "download", "delete"]);
  await grant(reader.id, group, ["read"]);
  await grant(viewer.id, group, ["read", "download"]);
  return { group, editor, reader, viewer };
}

/** An asset in the group, made by the admin, with `content` as its first version (none: an empty asset). */
export async function doc(group: string, name = "Заметки.txt", content?: string, mime = "text/plain") {
  const bearer = await admin();
  const { asset_id } = await createAsset(bearer, { in_group: group, asset_name: name, asset_mime: mime });
  if (content !== undefined) await uploadFile(bearer, asset_id, text(content), { name, mime });
  return asset_id;
}

export interface Token {
  access_token: string;
  access_token_ttl: number;
  wopi_src: string;
  urlsrc: string | null;
  can_write: boolean;
}

export const tokenFor = (bearer: string, id: string, otherEnv?: Env) =>
  json<Token>(api(`/api/wopi/token/${id}`, { method: "POST", bearer, env: otherEnv }));

/** A WOPI call on a file: `suffix` "" or "/contents", the token in the query, WOPI headers as given. */
export function wopi(
  id: string,
  token: string,
  init: { method?: string; suffix?: string; headers?: Record<string, string>; body?: BodyInit; env?: Env } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.body instanceof Uint8Array) headers["Content-Length"] = String(init.body.length);
  return api(`/api/wopi/files/${id}${init.suffix ?? ""}?access_token=${encodeURIComponent(token)}`, {
    method: init.method ?? "GET",
    headers,
    body: init.body,
    env: init.env,
  });
}

export const override = (id: string, token: string, op: string, headers: Record<string, string> = {}, body?: BodyInit) =>
  wopi(id, token, { method: "POST", headers: { "X-WOPI-Override": op, ...headers }, body });

export const putFile = (id: string, token: string, content: string, lock?: string) =>
  wopi(id, token, {
    method: "POST",
    suffix: "/contents",
    headers: { "X-WOPI-Override": "PUT", ...(lock ? { "X-WOPI-Lock": lock } : {}) },
    body: text(content),
  });

export async function fileInfo(id: string, token: string, otherEnv?: Env) {
  const res = await wopi(id, token, { env: otherEnv });
  if (res.status !== 200) throw new Error(`CheckFileInfo: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

export const testEnv = () => env as unknown as Env;
