import type { z } from "zod";
import type { eventsListBody, eventsPage } from "../../functions/events/schemas";
import { api } from "./api";

/** The global events list (POST /api/global-events/list); types from the API's own schemas. */
export type EventsPage = z.infer<typeof eventsPage>;
export type EventsQuery = z.input<typeof eventsListBody>;

export const listEvents = (query: EventsQuery, signal?: AbortSignal) =>
  api<EventsPage>("/global-events/list", { method: "POST", body: query, signal });
