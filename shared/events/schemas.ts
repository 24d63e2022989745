import { z } from "@hono/zod-openapi";
import { entityId } from "../users/schemas";

/** The global events list (docs/decisions/043-events-list.md). Shared with the front end: no server imports. */

export const MAX_EVENTS_PAGE = 200;

const time = z.number({ error: "должно быть число (секунды Unix)" }).int("должно быть целым").min(0);

export const eventsListBody = z
  .object({
    kinds: z
      .array(
        z
          .string()
          .trim()
          .min(1, "не может быть пустым")
          .max(60)
          .regex(/^[a-z_.-]+$/, "допустимы a-z, «_», «.» и «-»"),
      )
      .max(20, "не больше 20 видов")
      .optional()
      .openapi({ description: 'kind prefixes: "asset" matches asset.create and asset.delete' }),
    entity: z.object({ id: z.string().min(1).max(100), type: z.string().min(1).max(30).optional() }).optional(),
    user: entityId.optional(),
    asset: entityId
      .optional()
      .openapi({ description: "an asset's history: events on it, on its share links and on its tasks (the caller must read it)" }),
    from: time.optional(),
    to: time.optional(),
    cursor: z.string().regex(/^\d+$/, "не курсор этого списка").optional().openapi({ description: "next_cursor of the previous page" }),
    take: z.number().int().min(1).max(MAX_EVENTS_PAGE, `не больше ${MAX_EVENTS_PAGE}`).default(50),
  })
  .refine((b) => b.from === undefined || b.to === undefined || b.from <= b.to, { path: ["to"], message: "раньше, чем from" })
  .openapi("EventsListBody");

/**
 * One object an event names, as it was named when the event was written (docs/decisions/057-readable-history.md):
 * a task also has its number, a variant its version.
 */
export const eventName = z
  .object({
    type: z.string(),
    name: z.string(),
    num: z.number().int().optional().openapi({ description: "a task's number" }),
    version: z.number().int().optional().openapi({ description: "a variant's version" }),
  })
  .openapi("EventName");

export const eventItem = z
  .object({
    event_id: z.string(),
    kind: z.string(),
    time: z.number().int(),
    user_id: z.string().nullable(),
    user_name: z.string().nullable(),
    entity_id: z.string().nullable(),
    entity_type: z.string().nullable(),
    entity_name: z.string().nullable(),
    data: z.record(z.string(), z.unknown()).nullable(),
    names: z
      .record(z.string(), eventName)
      .openapi({ description: "by id: the event's object, its actor and the objects its data names, those the caller may read" }),
  })
  .openapi("EventItem");

export const eventsPage = z.object({ items: z.array(eventItem), next_cursor: z.string().nullable() }).openapi("EventsPage");

export type EventsListBody = z.infer<typeof eventsListBody>;
export type EventItem = z.infer<typeof eventItem>;
export type EventName = z.infer<typeof eventName>;

/** Most events one export may hold: each batch of EXPORT_BATCH is one D1 query, and a request may make ~1,000. */
export const MAX_EXPORT_EVENTS = 1_000_000;
export const EXPORT_BATCH = 2_000;

const queryTime = z
  .string()
  .regex(/^\d{1,12}$/, "должно быть число (секунды Unix)")
  .transform(Number);

/** GET /api/global-events/export (admins): a time range, whole, oldest first. */
export const eventsExportQuery = z
  .object({
    format: z.enum(["csv", "ndjson"], { error: "csv или ndjson" }),
    from: queryTime.openapi({ description: "Unix seconds, inclusive", type: "string" }),
    to: queryTime.openapi({ description: "Unix seconds, inclusive", type: "string" }),
    kinds: z
      .string()
      .max(1000)
      .regex(/^[a-z_.-]+(,[a-z_.-]+)*$/, "префиксы видов через запятую: a-z, «_», «.» и «-»")
      .transform((s) => s.split(","))
      .optional()
      .openapi({ description: 'comma-separated kind prefixes: "asset,share"', type: "string" }),
  })
  // Only when both parsed: a missing "from" is reported as itself, not as "to" too.
  .refine((q) => typeof q.from !== "number" || typeof q.to !== "number" || q.from <= q.to, { path: ["to"], message: "раньше, чем from" });

export type EventsExportQuery = z.infer<typeof eventsExportQuery>;
