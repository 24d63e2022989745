import type { z } from "zod";
import type { eventsListBody, eventsPage } from "../../functions/events/schemas";
import { api } from "./api";

/** The global events list (POST /api/global-events/list); types from the API's own schemas. */
export type EventsPage = z.infer<typeof eventsPage>;
export type EventsQuery = z.input<typeof eventsListBody>;

export const listEvents = (query: EventsQuery, signal?: AbortSignal) =>
  api<EventsPage>("/global-events/list", { method: "POST", body: query, signal });

/** Where an event's object opens in the app. */
export function entityHref(type: string | null, id: string | null): string | null {
  if (!id) return null;
  if (type === "asset") return `/asset/${id}`;
  if (type === "group") return `/mam/${id}`;
  if (type === "user") return `/admin/user/${id}`;
  return null;
}
