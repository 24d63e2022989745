import { z } from "@hono/zod-openapi";

/** A tag as every answer shows it (an asset's `tags`, a group's `group_tags`, the tag lists). No imports beyond zod: groups' and assets' schemas use it. */
export const tag = z.object({ tag_id: z.string(), tag_name: z.string() }).openapi("Tag");
