/** The ten permission values (docs/decisions/003-permission-engine.md), in the order the UI lists them. */
export const permissionValues = ["deny", "read", "update", "create", "delete", "acl", "group", "superuser", "download", "execute"] as const;

export type Permission = (typeof permissionValues)[number];
