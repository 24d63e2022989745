import { PAGE_SIZE } from "../../../shared/lib/constants";
import { intParam } from "../../lib/route-data";

/**
 * What an admin list reads from its address: ?q= (the search text) and ?page= (1-based), so a reload, a
 * shared link and back/forward show the same page of the same search.
 */
export function listParams(request: Request) {
  const params = new URL(request.url).searchParams;
  const page = Math.max(1, intParam(params, "page", 1));
  return { q: params.get("q")?.trim() ?? "", page, skip: (page - 1) * PAGE_SIZE, take: PAGE_SIZE };
}
