import { randomBytes } from "node:crypto";
import { VIRTUAL_ROOT_ID } from "../../shared/lib/constants";
import type { Client } from "../media/media";

/** Calls the catalogue flows share, each one request a client makes (groups, rules, search), over HTTP only. */

/** A word no other test's document contains: latin letters only, so the tokenizer keeps it whole. */
export const freshWord = (prefix = "e2e") => `${prefix}${[...randomBytes(8)].map((b) => String.fromCharCode(97 + (b % 26))).join("")}`;

/** A group under `parent` (a top-level one by default, which only an admin may create); answers its id. */
export async function groupOf(admin: Client, name: string, parent = VIRTUAL_ROOT_ID) {
  const { group_id } = await admin.call<{ group_id: string }>("/api/group/create", { json: { parent, group_name: name } });
  return group_id;
}

/** An access rule giving `user` these permissions on a group (as the admin's access screen makes it). */
export const grant = (admin: Client, user: string, group: string, acl: string[]) =>
  admin.call("/api/user/acl", { json: { subj: user, obj: group, acl } });

/** A metadata-only asset (no file yet) in `group`; answers its id. */
export async function assetIn(client: Client, group: string, name: string, mime = "text/plain") {
  const { asset_id } = await client.call<{ asset_id: string }>("/api/asset/create", {
    json: { asset_name: name, asset_mime: mime, in_group: group },
  });
  return asset_id;
}

export interface Found {
  total: number;
  items: { el_id: string; el_type: "asset" | "group"; name: string }[];
}

/** POST /api/search/query, as the search screen sends it. */
export const search = (client: Client, q: string, filters: Record<string, unknown> = {}) =>
  client.call<Found>("/api/search/query", { json: { q, filters, take: 100 } });

/** The total and the sorted names of a search's hits: what the result list shows. */
export async function shown(client: Client, q: string, filters: Record<string, unknown> = {}) {
  const found = await search(client, q, filters);
  return { total: found.total, names: found.items.map((i) => i.name).sort() };
}
