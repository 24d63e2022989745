import { errorAnswers, jsonBody, routeDefiner } from "../lib/route-contract";
import * as s from "./schemas";

/**
 * /api/tags, served by ./routes.ts and called by the browser through call() (docs/decisions/070-route-contracts.md).
 * One vocabulary for every signed-in user to read and add to; renaming and deleting a tag changes it on everyone's
 * objects, so those are admins' (docs/decisions/032-tags-and-taxonomy.md).
 */
const route = routeDefiner(
  ["tags"],
  errorAnswers({
    403: "Admins only, or the permission on an object is missing",
    404: "No such tag, or an object the caller may not read",
    409: "A tag with this name (ignoring case and ё/е) exists",
  }),
);

export const listTags = route(
  "get",
  "/tags/list",
  "A page of tags by name (a short page is the last)",
  { query: s.pageQuery },
  s.tag.array(),
);
export const tagsByIds = route(
  "post",
  "/tags/list-by-ids",
  "Tags by id (unknown ids are left out)",
  { body: jsonBody(s.idsBody) },
  s.tag.array(),
);
export const findTags = route(
  "post",
  "/tags/list-by-filter",
  "Tags whose name starts with q, then those containing it (case and ё/е ignored)",
  { body: jsonBody(s.tagFilterBody) },
  s.tag.array(),
);
export const createTag = route("post", "/tags/create", "Create a tag", { body: jsonBody(s.tagBody) }, s.tagCreated);
export const renameTag = route(
  "patch",
  "/tags/change/{id}",
  "Rename a tag (admins)",
  { params: s.idParam, body: jsonBody(s.tagBody) },
  s.tag,
);
export const deleteTag = route(
  "delete",
  "/tags/delete/{id}",
  "Delete a tag from everything it is on (admins)",
  { params: s.idParam },
  s.ok,
);
// Attaching and detaching are one route twice: the same input and answer, the opposite change.
const linkRoute = <P extends string>(path: P, summary: string) =>
  route("post", path, summary, { body: jsonBody(s.tagLinkBody) }, s.tagLinkResult);
export const attachTags = linkRoute("/tags/attach", "Put tags on assets and groups (update on each; all or nothing; idempotent)");
export const detachTags = linkRoute("/tags/detach", "Take tags off assets and groups (update on each; all or nothing; idempotent)");
