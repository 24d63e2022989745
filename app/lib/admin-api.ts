import type { z } from "@hono/zod-openapi";
import type { group, member } from "../../shared/groups/schemas";
import type { ssoLink } from "../../shared/sso/schemas";
import type { createStorageBody, storage, updateStorageBody, usage } from "../../shared/storage/schemas";
import type { CreateUserBody, issuedToken, rule, team, tokenInfo, UpdateUserBody, user } from "../../shared/users/schemas";
import type { Permission } from "../../shared/lib/permissions";
import { PAGE_SIZE } from "../../shared/lib/constants";
import * as groups from "../../shared/groups/contract";
import * as sso from "../../shared/sso/contract";
import * as storages from "../../shared/storage/contract";
import * as users from "../../shared/users/contract";
import { call } from "./api";

/** The calls the admin area makes (/api/user, /api/group, /api/storage); types come from the API's own schemas. */

export type AdminUser = z.infer<typeof user>;
export type AccessRule = z.infer<typeof rule>;
export type Team = z.infer<typeof team>;
export type ApiToken = z.infer<typeof tokenInfo>;
export type IssuedToken = z.infer<typeof issuedToken>;
export type GroupRow = z.infer<typeof group>;
export type GroupMember = z.infer<typeof member>;
export type Storage = z.infer<typeof storage>;
export type StorageUsage = z.infer<typeof usage>;
export type SsoLinkRow = z.infer<typeof ssoLink>;
export type { CreateUserBody, UpdateUserBody, Permission };

export interface UsersQuery {
  enabled?: boolean;
  q?: string;
  /** Members of this team only. */
  group?: string;
  skip?: number;
  take?: number;
}

export const listUsers = (query: UsersQuery, signal?: AbortSignal) =>
  call(users.listUsers, {
    query: {
      enabled: query.enabled === undefined ? undefined : query.enabled ? "true" : "false",
      q: query.q?.trim() || undefined,
      group: query.group,
      skip: query.skip ?? 0,
      take: query.take ?? PAGE_SIZE,
    },
    signal,
  });
export const getUser = (id: string, signal?: AbortSignal) => call(users.getUser, { params: { id }, signal });
export const createUser = (body: CreateUserBody) => call(users.createUser, { body });
/** Deletes a user; `heir` takes over what they own (absent: the caller, decision 056). */
export const deleteUser = (id: string, heir?: string) => call(users.deleteUser, { params: { id }, query: { heir } });
export const updateUser = (id: string, body: UpdateUserBody) => call(users.updateUser, { params: { id }, body });

export const listTokens = (userId: string, signal?: AbortSignal) => call(users.listTokens, { params: { id: userId }, signal });
export const issueToken = (userId: string, name: string, expiresInDays?: number) =>
  call(users.issueToken, { params: { id: userId }, body: { name, expires_in_days: expiresInDays } });
export const revokeToken = (userId: string, tokenId: string) => call(users.revokeToken, { params: { id: userId, tokenId } });

export const getMembership = (userId: string, signal?: AbortSignal) => call(users.getMembership, { params: { id: userId }, signal });
export const setMembership = (userId: string, groups: string[]) => call(users.setMembership, { params: { id: userId }, body: { groups } });

export const addTeamMembers = (groupId: string, userIds: string[]) =>
  call(groups.insertMembers, {
    body: { group_id: groupId, members: userIds.map((el_id) => ({ el_id, el_type: "user" as const })) },
  });
export const removeTeamMembers = (groupId: string, userIds: string[]) =>
  call(groups.deleteMembers, {
    body: { group_id: groupId, members: userIds.map((el_id) => ({ el_id, el_type: "user" as const })) },
  });

export const userRules = (userId: string, signal?: AbortSignal) => call(users.userRules, { params: { id: userId }, signal });
export const groupRules = (groupId: string, signal?: AbortSignal) => call(users.groupRules, { params: { id: groupId }, signal });
export const createRule = (subj: string, obj: string, acl: Permission[]) => call(users.createRule, { body: { subj, obj, acl } });
export const updateRule = (ruleId: string, acl: Permission[]) => call(users.updateRule, { params: { id: ruleId }, body: { acl } });
export const deleteRule = (ruleId: string) => call(users.deleteRule, { params: { id: ruleId } });

/** The group screen of the admin area reads a group as the browser does. */
export { getGroup } from "../components/mam/mam-api";
export const searchGroups = (q: string, skip = 0, take = 20, signal?: AbortSignal) =>
  call(groups.searchGroups, { query: { q, skip, take }, signal });
export const rootGroups = (signal?: AbortSignal) => call(groups.roots, { signal });
export const teams = (signal?: AbortSignal) => call(groups.groupsWithUsers, { signal });
/** Assets of a group whose name contains `filter` (the object picker of a rule on an asset). */
export const groupAssets = (groupId: string, filter: string, signal?: AbortSignal) =>
  call(groups.members, { params: { id: groupId }, query: { type: "asset", filters: filter.trim() || undefined, take: 20 }, signal });

/**
 * Admins get each storage's setup (credentials are write-only: only whether they are set comes back); the route answers
 * others the brief form, hence the narrowing for the admin area.
 */
export const listStorages = (signal?: AbortSignal) => call(storages.listStorages, { signal }) as Promise<Storage[]>;
export const storageUsage = (signal?: AbortSignal) => call(storages.storageUsage, { signal });
export const createStorage = (body: z.input<typeof createStorageBody>) => call(storages.createStorage, { body });
export const updateStorage = (id: string, body: z.input<typeof updateStorageBody>) =>
  call(storages.updateStorage, { params: { id }, body });
/** A group's own default storage for new assets (null: as its parent). */
export const setGroupStorage = (id: string, group_default_storage: string | null) =>
  call(groups.updateGroup, { params: { id }, body: { group_default_storage } });

/** The single sign-on providers a user is linked to, and unlinking one. */
export const ssoLinks = (userId: string, signal?: AbortSignal) => call(sso.ssoLinks, { params: { id: userId }, signal });
export const unlinkSso = (userId: string, provider: string) => call(sso.unlinkSso, { params: { id: userId, provider } });
