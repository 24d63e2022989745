import { errorAnswers, jsonBody, routeDefiner } from "../lib/route-contract";
import * as s from "./schemas";

/**
 * /api/taxonomy, served by ./routes.ts and called by the browser through call() (docs/decisions/070-route-contracts.md).
 * One classification tree. Everyone signed in reads it and files the objects they may change; its shape (create,
 * rename, move, delete) is admins' (docs/decisions/032-tags-and-taxonomy.md).
 */
const route = routeDefiner(
  ["taxonomy"],
  errorAnswers({
    403: "Admins only, or the permission on the object is missing",
    404: "No such taxon, or an object the caller may not read",
    409: "A sibling taxon has this name",
  }),
);

export const taxonomyTree = route(
  "get",
  "/taxonomy/tree",
  "The whole taxonomy, each taxon after its parent, siblings by name",
  {},
  s.taxon.array(),
);
export const createTaxon = route(
  "post",
  "/taxonomy/create",
  "Create the missing taxa along a path (admins; idempotent)",
  { body: jsonBody(s.createTaxonBody) },
  s.taxonCreated,
);
export const changeTaxon = route(
  "patch",
  "/taxonomy/change/{id}",
  "Rename or move a taxon with its subtree (admins)",
  { params: s.idParam, body: jsonBody(s.changeTaxonBody) },
  s.taxon,
);
export const deleteTaxon = route(
  "delete",
  "/taxonomy/delete/{id}",
  "Delete a taxon, its subtree and their memberships (admins)",
  { params: s.idParam },
  s.ok,
);
export const listMembers = route(
  "get",
  "/taxonomy/list-members/{id}",
  "A page of a taxon's members the caller can read (with descendants=true, of its subtree)",
  { params: s.idParam, query: s.listMembersQuery },
  s.taxonMembersPage,
);
export const taxaOf = route(
  "get",
  "/taxonomy/for-entity/{id}",
  "The taxa an asset or group is filed under (read on it)",
  { params: s.idParam },
  s.taxon.array(),
);
// Filing and unfiling are one route twice: the same input and answer, the opposite change.
const memberRoute = <P extends string>(path: P, summary: string) =>
  route("post", path, summary, { params: s.idParam, body: jsonBody(s.memberBody) }, s.ok);
export const addMember = memberRoute("/taxonomy/add-member/{id}", "File an asset or group under a taxon (update on it; idempotent)");
export const deleteMember = memberRoute("/taxonomy/del-member/{id}", "Take an asset or group out of a taxon (update on it; idempotent)");
