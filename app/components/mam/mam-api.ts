import type { z } from "@hono/zod-openapi";
import * as assets from "../../../shared/assets/contract";
import type { asset, previewLinks as previewLinksOut } from "../../../shared/assets/schemas";
import type { entityAccessOut, userAbilities as abilitiesOut } from "../../../shared/auth/schemas";
import * as auth from "../../../shared/auth/contract";
import * as groups from "../../../shared/groups/contract";
import type { group, groupWithAccess, member } from "../../../shared/groups/schemas";
import { PAGE_SIZE, VIRTUAL_ROOT_ID } from "../../../shared/lib/constants";
import { call } from "../../lib/api";
import type { MembersOrder } from "./sort";

/** Calls of /api/group and /api/asset used by the browser; the shapes are the API's own schemas. */

export type Group = z.infer<typeof group>;
export type GroupWithAccess = z.infer<typeof groupWithAccess>;
export type Member = z.infer<typeof member>;
export type PreviewLink = z.infer<typeof previewLinksOut>[number];
export type Abilities = z.infer<typeof abilitiesOut>;
export type EntityAccess = z.infer<typeof entityAccessOut>;
export type Asset = z.infer<typeof asset>;
export { PAGE_SIZE, VIRTUAL_ROOT_ID };

export const aclRoots = () => call(groups.aclRoots);
export const getGroup = (id: string, signal?: AbortSignal) => call(groups.getGroup, { params: { id }, signal });

export interface MembersQuery extends Partial<MembersOrder> {
  take?: number;
  type?: "all" | "group" | "asset";
  signal?: AbortSignal;
}

export function listMembers(id: string, skip: number, { take = PAGE_SIZE, type = "all", sort, order, filters, signal }: MembersQuery = {}) {
  return call(groups.members, { params: { id }, query: { skip, take, type, sort, order, filters }, signal });
}

/** Every subgroup of a group (pages of 200 until a short one). */
export async function allSubgroups(id: string): Promise<Member[]> {
  if (id === VIRTUAL_ROOT_ID) {
    return (await aclRoots()).map((g) => ({
      el_id: g.group_id,
      el_type: "group" as const,
      el_info: { name: g.group_name, mimetype: null, ctime: g.ctime, ver: null, var: null, var_size: null },
    }));
  }
  const out: Member[] = [];
  for (;;) {
    const page = await listMembers(id, out.length, { take: 200, type: "group" });
    out.push(...page);
    if (page.length < 200) return out;
  }
}

export const createGroup = (parent: string, group_name: string) => call(groups.createGroup, { body: { parent, group_name } });
export const renameGroup = (id: string, group_name: string) => call(groups.updateGroup, { params: { id }, body: { group_name } });
export const deleteGroup = (id: string) => call(groups.deleteGroup, { params: { id } });
export const deleteGroups = (ids: string[]) => call(groups.deleteGroups, { body: { ids } });
export const deleteAssets = (ids: string[]) => call(assets.deleteAssets, { body: { ids } });

export function moveMembers(from: string, to: string, members: { el_id: string; el_type: "asset" | "group" }[]) {
  return call(groups.moveMembers, { body: { from, to, members } });
}

export const previewLinks = (ids: string[]) => call(assets.previewsOfAssets, { body: { ids } });

export const userAbilities = () => call(auth.getUserAbilities);
export const entityAccess = (id: string) => call(auth.entityAccess, { params: { id } });

/** Splits a list into chunks the API accepts (at most 100 ids per call). */
export function chunks<T>(list: T[], size = 100): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

export const getAsset = (id: string, signal?: AbortSignal) => call(assets.getAsset, { params: { id }, signal });
export const contentSize = (id: string) => call(assets.contentSize, { params: { id } });

/** A freshly uploaded asset as a row of the contents list. */
export async function memberOfAsset(id: string): Promise<Member> {
  const [asset, size] = await Promise.all([getAsset(id), contentSize(id)]);
  const variants = asset.asset_latest_version_variants;
  const main = variants.find((v) => v.type === "master" || v.type === "initial") ?? variants[0];
  return {
    el_id: id,
    el_type: "asset",
    el_info: {
      name: asset.name,
      mimetype: asset.mimetype,
      ctime: asset.ctime,
      ver: asset.asset_latest_version,
      var: main?.id ?? null,
      var_size: size.content_size,
    },
  };
}
