import { assetCases } from "./assets";
import { fieldCases } from "./fields";
import { authCases, systemCases } from "./auth";
import { davCases } from "./dav";
import { groupCases } from "./groups";
import { metadataTagCases } from "./metadata-tags";
import { eventCases } from "./events";
import { searchCases } from "./search";
import { duplicateCases } from "./duplicates";
import { taskCases } from "./tasks";
import { storageCases } from "./storage";
import type { RouteCase } from "./types";
import { uploadCases } from "./uploads";
import { userCases } from "./users";
import { shareLinkCases } from "./sl";
import { ssoCases } from "./sso";
import { wopiCases } from "./wopi";
import { shopCases } from "./shop";
import { udwfCases } from "./udwf";
import { transcriptCases } from "./transcripts";
import { reviewCases } from "./review";
import { reviewGuestCases } from "./review-guest";

/**
 * Every resource's matrix declarations. A new resource adds tests/api/authz/<resource>.ts and one
 * line here; until it does, its routes fail "every registered route declares its expectations".
 */
export const routeCases: RouteCase[] = [
  ...systemCases,
  ...authCases,
  ...groupCases,
  ...userCases,
  ...assetCases,
  ...uploadCases,
  ...storageCases,
  ...shareLinkCases,
  ...taskCases,
  ...ssoCases,
  ...fieldCases,
  ...metadataTagCases,
  ...eventCases,
  ...searchCases,
  ...duplicateCases,
  ...davCases,
  ...wopiCases,
  ...shopCases,
  ...udwfCases,
  ...transcriptCases,
  ...reviewCases,
  ...reviewGuestCases,
];

export {
  assetCases,
  eventCases,
  searchCases,
  duplicateCases,
  authCases,
  davCases,
  fieldCases,
  groupCases,
  metadataTagCases,
  shareLinkCases,
  shopCases,
  storageCases,
  ssoCases,
  systemCases,
  taskCases,
  uploadCases,
  userCases,
  wopiCases,
  udwfCases,
  transcriptCases,
  reviewCases,
  reviewGuestCases,
};
