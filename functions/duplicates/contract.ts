import { errorResponses, jsonBody, routeDefiner } from "../lib/route-contract";
import { similarBody, similarItem } from "./schemas";

/**
 * Duplicates' routes the browser calls through call() (docs/decisions/070-route-contracts.md): POST /api/search/similar,
 * served by ./similar-routes.ts next to search's routes (docs/decisions/058-duplicates-and-look-alikes.md).
 */
const route = routeDefiner(["search"], errorResponses);

export const similar = route(
  "post",
  "/search/similar",
  "Assets that look like an asset by perceptual fingerprint, nearest first (no model needed; 404 for an unreadable or missing like)",
  { body: jsonBody(similarBody) },
  similarItem.array(),
);
