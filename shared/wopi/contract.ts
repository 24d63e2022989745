import { defineRoute, errorResponse, errorResponses, jsonContent } from "../lib/route-contract";
import { fileParam, tokenAnswer } from "./schemas";

/**
 * /api/wopi/token, served by ./routes.ts and called by the editor page through call()
 * (docs/decisions/070-route-contracts.md). The WOPI file routes an office server calls stay in ./routes.ts.
 */
export const wopiToken = defineRoute({
  method: "post",
  path: "/wopi/token/{id}",
  tags: ["office editing (WOPI)"],
  summary: "An access token for the caller on a file (write when it holds update), its CheckFileInfo URL and the office client's page",
  request: { params: fileParam },
  responses: { 200: jsonContent(tokenAnswer), ...errorResponses, 404: errorResponse("Unknown file or not readable") },
});
