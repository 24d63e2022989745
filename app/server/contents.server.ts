import type { AppLoadContext } from "@remix-run/cloudflare";
import { previewsOf } from "../../functions/assets/extra";
import { getGroup } from "../../functions/groups/service";
import { members } from "../../functions/groups/tree";
import { authenticatePage, pageBearer } from "../../functions/auth/page-session";
import { getDb } from "../../functions/lib/db";
import type { Env } from "../../functions/lib/env";
import { ApiError } from "../../functions/lib/errors";
import { orderOf, type Contents } from "../components/mam/contents";
import { PAGE_SIZE, VIRTUAL_ROOT_ID, type Member } from "../components/mam/mam-api";

/**
 * The server side of /mam and /mam/{idGroup}: the first page of the group's contents in the order the
 * address asks, its group (with the caller's permissions) and the page's thumbnails, so the list arrives
 * with the HTML instead of after the client bundle; the page keeps this answer when it hydrates (contents.ts). The same services and permission checks as GET members/{id}, group/get and
 * preview-by-list, called directly (as the share page does), as the user of the page-session cookie
 * (functions/auth/page-session.ts). No cookie, a bearer no longer valid or any refusal: null, and the browser
 * loads the page itself as it does after a navigation (a refusal then shows in the screen's error boundary).
 */
export async function loadContentsSeed(context: AppLoadContext, request: Request, groupId: string): Promise<Contents | null> {
  const { env } = context.cloudflare as { env: Env };
  const auth = await authenticatePage(env, request);
  if (!auth) return null;
  const db = getDb(env);
  const order = orderOf(new URL(request.url).searchParams);
  try {
    const [items, group] = await Promise.all([
      members(db, auth, groupId, { type: "all", skip: 0, take: PAGE_SIZE, ...order }),
      groupId === VIRTUAL_ROOT_ID ? null : getGroup(db, auth, groupId),
    ]);
    const withVariant = items.filter((m) => m.el_type === "asset" && m.el_info.var).map((m) => m.el_id);
    const previews = withVariant.length ? await previewsOf(db, auth, withVariant, "asset") : [];
    return { groupId, order, items: items as Member[], group, previews: Object.fromEntries(previews.map((p) => [p.id, p.preview])) };
  } catch (err) {
    if (err instanceof ApiError) return null;
    throw err;
  }
}

/** Whether the request carries a page-session cookie at all: the layout renders the shell on the server only then. */
export const hasPageSession = (request: Request) => pageBearer(request) !== null;
