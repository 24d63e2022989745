import type { z } from "zod";
import * as events from "../../shared/events/contract";
import type { eventsListBody, eventsPage } from "../../shared/events/schemas";
import { call, routePath } from "./api";

/** The global events list (POST /api/global-events/list) and its export; routes and types from the API's contract. */
export type EventsPage = z.infer<typeof eventsPage>;
export type EventsQuery = z.input<typeof eventsListBody>;

export const listEvents = (query: EventsQuery, signal?: AbortSignal) => call(events.listEvents, { body: query, signal });
/** The export's path; its query (format, from, to, kinds) goes on it as the download's URL. */
export const eventsExportPath = routePath(events.exportEvents);
