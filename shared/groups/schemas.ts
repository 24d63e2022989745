import { z } from "@hono/zod-openapi";
import { VIRTUAL_ROOT_ID } from "../lib/constants";
import { entityId, idParam, idsBody, pageQuery, uuidRe } from "../lib/params";
import { tag } from "../tags/tag-ref";

/** Shared by the API validator and the front end's forms: no server imports here. */

/** The ids and paging every resource checks live in lib/params.ts; re-exported for the importers that knew them here. */
export { entityId, idParam, idsBody, pageQuery, uuidRe };

export const groupName = z
  .string({ error: "обязательное поле" })
  .trim()
  .min(1, "не может быть пустым")
  .max(255, "не длиннее 255 символов")
  .refine((s) => !s.includes("/") && s !== "." && s !== "..", "не может содержать «/» и быть «.» или «..»");

export const group = z
  .object({
    group_id: z.string(),
    group_name: z.string(),
    parent_id: z.string().nullable().openapi({ description: "null for a root" }),
    group_owner: z.string().nullable(),
    group_default_storage: z.string().nullable(),
    group_default_class: z.string().nullable(),
    group_tags: z.array(tag).openapi({ description: "its tags, by name (POST /api/tags/attach, /detach)" }),
    ctime: z.number().int(),
    mtime: z.number().int(),
  })
  .openapi("Group");

export const groupWithAccess = group
  .extend({ acl: z.array(z.string()).openapi({ description: "the caller's permissions" }) })
  .openapi("GroupWithAccess");

export const createGroupBody = z
  .object({
    group_name: groupName,
    parent: entityId.openapi({ description: `parent group id; ${VIRTUAL_ROOT_ID} makes a top-level group (admins only)` }),
  })
  .openapi("CreateGroupBody");

export const updateGroupBody = z
  .object({
    group_name: groupName.optional(),
    group_default_storage: z.string().max(200).nullable().optional(),
    group_default_class: z.string().max(200).nullable().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), "нечего менять")
  .openapi("UpdateGroupBody");

export const memberRef = z.object({
  el_id: entityId,
  el_type: z.enum(["asset", "user"], { error: "должен быть asset или user" }),
});
export const membersBody = z
  .object({ group_id: entityId, members: z.array(memberRef).min(1, "список пуст").max(100, "не больше 100 за раз") })
  .openapi("MembersBody");

const movable = z.object({ el_id: entityId, el_type: z.enum(["asset", "group"], { error: "должен быть asset или group" }) });
export const moveMemberBody = movable.extend({ from: entityId, to: entityId }).openapi("MoveMemberBody");
export const moveMembersBody = z
  .object({ from: entityId, to: entityId, members: z.array(movable).min(1, "список пуст").max(100, "не больше 100 за раз") })
  .openapi("MoveMembersBody");

/** The last page is the one that comes back short. */
export const memberSorts = ["name", "ctime", "size"] as const;
export type MemberSort = (typeof memberSorts)[number];

export const membersQuery = pageQuery.extend({
  type: z.enum(["all", "group", "asset"], { error: "должен быть all, group или asset" }).default("all"),
  filters: z.string().max(200).optional().openapi({ description: "case-insensitive substring of the name" }),
  sort: z.enum(memberSorts, { error: "должен быть name, ctime или size" }).optional().openapi({
    description:
      "name (case-insensitive), ctime (the asset's) or size (its latest main variant's); absent: subgroups by name, then assets as added. Subgroups stay first: by name, or by ctime for sort=ctime",
  }),
  order: z.enum(["asc", "desc"], { error: "должен быть asc или desc" }).default("asc"),
});

export const member = z
  .object({
    el_id: z.string(),
    el_type: z.enum(["asset", "group"]),
    el_info: z.object({
      name: z.string(),
      mimetype: z.string().nullable(),
      ctime: z.number().int(),
      ver: z.number().int().nullable(),
      var: z.string().nullable(),
      var_size: z.number().nullable(),
    }),
  })
  .openapi("GroupMember");

export const treeNode = z
  .object({ group_id: z.string(), group_name: z.string(), parent_id: z.string().nullable(), depth: z.number().int() })
  .openapi("GroupTreeNode");

export const subtreeQuery = z.object({
  depth: z.coerce
    .number({ error: "должно быть числом" })
    .int()
    .min(1)
    .max(64)
    .optional()
    .openapi({ description: "levels below the group; all when absent" }),
  take: z.coerce
    .number({ error: "должно быть числом" })
    .int()
    .min(1, "не меньше 1")
    .max(10000, "не больше 10000")
    .optional()
    .openapi({ description: "page size; the whole subtree when absent (a short page is the last)" }),
  after: entityId.optional().openapi({ description: "the last group of the previous page: the page starts after it in path order" }),
});
export type SubtreeQuery = z.infer<typeof subtreeQuery>;

export const searchQuery = pageQuery.extend({ q: z.string({ error: "обязательное поле" }).trim().min(1, "не может быть пустым").max(200) });

export const pathQuery = z.object({ path: z.string({ error: "обязательное поле" }).min(1, "не может быть пустым").max(4000) });
export const dirQuery = pathQuery.extend({
  skip: pageQuery.shape.skip,
  take: z.coerce.number({ error: "должно быть числом" }).int().min(1, "не меньше 1").max(1000, "не больше 1000").default(1000),
});

export const entityRef = z.object({ el_id: z.string(), el_type: z.enum(["asset", "group"]), name: z.string() }).openapi("EntityRef");

export const dirEntry = z
  .object({
    id: z.string(),
    type: z.enum(["asset", "group"]),
    name: z.string(),
    ctime: z.number().int(),
    mtime: z.number().int(),
    atime: z.number().int(),
    mime: z.string().nullable(),
    size: z.number(),
    ver: z.number().int().nullable(),
    var: z.string().nullable(),
    var_hash: z.string().nullable(),
  })
  .openapi("DirEntry");

export const groupSize = z
  .object({ group_id: z.string(), groups: z.number().int(), assets: z.number().int(), size: z.number() })
  .openapi("GroupSize");
export const groupStorage = z
  .object({ group_id: z.string(), storage_id: z.string().nullable(), inherited_from: z.string().nullable() })
  .openapi("GroupStorage");
export const teamSummary = z.object({ group_id: z.string(), group_name: z.string(), users: z.number().int() }).openapi("TeamSummary");
export const previewList = z.array(z.object({ group_id: z.string(), assets: z.array(z.string()) })).openapi("GroupPreviews");
export const created = z.object({ group_id: z.string() }).openapi("GroupCreated");
export const changed = z.object({ ok: z.literal(true), count: z.number().int() }).openapi("Changed");

export type CreateGroupBody = z.infer<typeof createGroupBody>;
export type UpdateGroupBody = z.infer<typeof updateGroupBody>;
export type MembersQuery = z.infer<typeof membersQuery>;

/** One row of «Удалённые» (GET /api/group/deleted): a group deleted on its own, not as part of an ancestor. */
export const deletedGroup = z
  .object({
    group_id: z.string(),
    group_name: z.string(),
    parent_id: z.string().nullable(),
    parent_name: z.string().nullable().openapi({ description: "where a restore puts it back (null: top level)" }),
    deleted_at: z.number().int(),
    deleted_by: z.string().nullable(),
    deleted_by_name: z.string().nullable().openapi({ description: "null when the deleter's account is gone" }),
    groups: z.number().int().openapi({ description: "groups in its subtree, itself included" }),
    purge_assets: z.number().int().openapi({ description: "assets a purge deletes: placed in this subtree and nowhere else" }),
    purge_bytes: z.number().int().openapi({ description: "bytes of those assets' variants" }),
  })
  .openapi("DeletedGroup");
