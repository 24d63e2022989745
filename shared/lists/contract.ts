import { z } from "@hono/zod-openapi";
import { errorAnswers, jsonBody, routeDefiner } from "../lib/route-contract";
import { list, listBody, listIdOut, listParam, listRecord, ok, recIdOut, recordBody, recordParam } from "./schemas";

/**
 * /api/lists, served by ./routes.ts and called by the browser through call() (docs/decisions/070-route-contracts.md):
 * everyone reads the vocabularies text fields pick from; admins change them.
 */
const route = routeDefiner(["lists"], errorAnswers({ 403: "Admins only", 404: "Not found", 409: "Name taken or in use" }));

export const allLists = route("get", "/lists", "All lists", {}, z.array(list));
export const createList = route("post", "/lists", "Create a list (admins)", { body: jsonBody(listBody) }, listIdOut);
export const renameList = route(
  "patch",
  "/lists/{list_id}",
  "Rename a list (admins)",
  { params: listParam, body: jsonBody(listBody) },
  list,
);
export const deleteList = route(
  "delete",
  "/lists/{list_id}",
  "Delete a list and its records (admins); 409 while a field template picks from it",
  { params: listParam },
  ok,
);
export const listRecords = route(
  "get",
  "/lists/records/{list_id}",
  "A list's records, in the order they were added",
  { params: listParam },
  z.array(listRecord),
);
export const createRecord = route(
  "post",
  "/lists/records/{list_id}",
  "Add a record (admins)",
  { params: listParam, body: jsonBody(recordBody) },
  recIdOut,
);
export const changeRecord = route(
  "patch",
  "/lists/records/{list_id}/{rec_id}",
  "Change a record (admins); single values holding its old text follow it",
  { params: recordParam, body: jsonBody(recordBody) },
  listRecord,
);
export const deleteRecord = route(
  "delete",
  "/lists/records/{list_id}/{rec_id}",
  "Delete a record (admins); values already holding its text keep it",
  { params: recordParam },
  ok,
);
