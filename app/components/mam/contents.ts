import type { ClientLoaderFunctionArgs } from "@remix-run/react";
import { enforceNavigationGuard } from "../../lib/guard";
import { ensurePrefs } from "../../lib/user-prefs";
import { getGroup, listMembers, previewLinks, VIRTUAL_ROOT_ID, type GroupWithAccess, type Member } from "./mam-api";
import { membersOrder, type MembersOrder, type SortDir, type SortKey } from "./sort";
import { openTreeAt } from "./tree-store";

/** What a /mam screen shows: the first page of the group's contents in the order asked, the group and the page's thumbnails. */
export interface Contents {
  groupId: string;
  order: MembersOrder;
  items: Member[];
  /** The open group with the caller's permissions on it; null for the virtual root. */
  group: GroupWithAccess | null;
  previews: Record<string, string | null>;
}

export const groupIdOf = (idGroup: string | undefined) => (idGroup ?? VIRTUAL_ROOT_ID).toLowerCase();

/** The sort lives in the address (`?sort=name|date|size&order=desc`), so a reload and a shared link show the same list. */
export function sortOf(params: URLSearchParams): { key: SortKey; dir: SortDir } {
  const key = params.get("sort");
  return {
    key: key === "name" || key === "date" || key === "size" ? key : "none",
    dir: params.get("order") === "desc" ? "desc" : "asc",
  };
}

/** The contents filter lives in the address too (`?q=…`), so the narrowed list survives a reload and a shared link. */
export const filterOf = (params: URLSearchParams): string | undefined => params.get("q")?.trim().slice(0, 200) || undefined;

export const orderOf = (params: URLSearchParams): MembersOrder => {
  const { key, dir } = sortOf(params);
  const filters = filterOf(params);
  return filters ? { ...membersOrder(key, dir), filters } : membersOrder(key, dir);
};

/** Thumbnails of a page's assets that have content (one preview-by-list call); none is no error, the icon stays. */
export async function previewsOfPage(items: Member[]): Promise<Record<string, string | null>> {
  const ids = items.filter((m) => m.el_type === "asset" && m.el_info.var).map((m) => m.el_id);
  if (!ids.length) return {};
  const links = await previewLinks(ids).catch(() => []);
  return Object.fromEntries(links.map((l) => [l.id, l.preview]));
}

async function loadContents(groupId: string, order: MembersOrder, signal: AbortSignal): Promise<Contents> {
  const [items, group] = await Promise.all([
    listMembers(groupId, 0, { ...order, signal }),
    groupId === VIRTUAL_ROOT_ID ? null : getGroup(groupId, signal),
  ]);
  return { groupId, order, items, group, previews: await previewsOfPage(items) };
}

/**
 * While the router's first load runs, i.e. the page is hydrating after the server rendered it; false for
 * every later navigation or reload of data. (Remix exposes its router on window; it is initialized once
 * the first loaders have finished.)
 */
function hydrating(): boolean {
  const router = (window as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter;
  return !router?.state.initialized;
}

/**
 * The clientLoader of /mam and /mam/{idGroup}. A page the server rendered with its first page
 * (contents.server.ts, the page-session cookie) keeps that answer when it hydrates; every other load,
 * and every revalidation after a change, asks the API. Either way the tree opens down to the group.
 */
export function contentsLoader() {
  // Remix's serverLoader() hands back the server's answer until the first call has *finished*, so a navigation
  // that starts while the page still hydrates (a filter typed early) got the page as rendered, not as asked.
  // The seed is for the first call only.
  let seedTaken = false;
  const clientLoader = async ({ params, request, serverLoader }: ClientLoaderFunctionArgs): Promise<Contents | null> => {
    const groupId = groupIdOf(params.idGroup);
    const takeSeed = hydrating() && !seedTaken;
    seedTaken = true;
    const seed = takeSeed ? await serverLoader<Contents | null>() : null;
    await enforceNavigationGuard(request);
    // The user's view, sort, open groups and bookmarks come with the first screen (once per user).
    const prefs = ensurePrefs();
    openTreeAt(groupId, prefs);
    const [contents] = await Promise.all([
      seed ?? loadContents(groupId, orderOf(new URL(request.url).searchParams), request.signal),
      prefs,
    ]);
    return contents;
  };
  return Object.assign(clientLoader, { hydrate: true as const });
}
