import { errorAnswers, errorResponses, jsonBody, routeDefiner } from "../lib/route-contract";
import * as s from "./schemas";

/**
 * Duplicates' routes, called by the browser through call() (docs/decisions/070-route-contracts.md,
 * 058-duplicates-and-look-alikes.md): /api/duplicates, served by ./routes.ts — identical originals by SHA-256 and,
 * with near=true, look-alike sets by perceptual fingerprint — and POST /api/search/similar, served by
 * ./similar-routes.ts next to search's routes.
 */
const route = routeDefiner(
  ["duplicates"],
  errorAnswers({
    403: "The caller may read the assets but lacks update on the target or delete on the copy",
    404: "No such asset, or one the caller may not read",
    409: "The copy has no content yet, or an upload into it is still going",
  }),
);

export const duplicatesOf = route(
  "get",
  "/duplicates/of/{asset_id}",
  "The other readable assets whose latest original has the same bytes (known: false until the transcoder hashed it)",
  { params: s.assetIdParam },
  s.duplicatesOfAnswer,
);
export const duplicateSets = route(
  "get",
  "/duplicates",
  "Sets of identical originals among the readable assets (admins: all), most bytes freed first; near=true: look-alike sets",
  { query: s.duplicatesQuery },
  s.duplicatesAnswer,
);
export const mergeAsVersion = route(
  "post",
  "/duplicates/{asset_id}/as-version-of/{target_id}",
  "Make an uploaded copy the next version of the asset it duplicates: its stored objects move, the copy is deleted",
  { params: s.mergeParams },
  s.mergeAnswer,
);

const searchRoute = routeDefiner(["search"], errorResponses);
export const similar = searchRoute(
  "post",
  "/search/similar",
  "Assets that look like an asset by perceptual fingerprint, nearest first (no model needed; 404 for an unreadable or missing like)",
  { body: jsonBody(s.similarBody) },
  s.similarItem.array(),
);
