import { PAGE_SIZE } from "../../../shared/lib/constants";
import { intParam } from "../../lib/route-data";
import { findTags, listClasses, listLists, listRecords, listTags, listTemplates, taxonomyTree } from "../../lib/metadata-api";

export const metadataTabs = ["templates", "classes", "tags", "taxonomy", "lists"] as const;
export type MetadataTab = (typeof metadataTabs)[number];

/** ?tab= (an unknown value opens the first tab). */
export function tabOf(params: URLSearchParams): MetadataTab {
  const tab = params.get("tab");
  return (metadataTabs as readonly string[]).includes(tab ?? "") ? (tab as MetadataTab) : "templates";
}

/**
 * What the open tab shows: ?q= and ?page= filter and page the tags, ?list= opens a list's records (the
 * first list when absent).
 */
export async function loadMetadataTab(params: URLSearchParams, signal: AbortSignal) {
  const tab = tabOf(params);
  switch (tab) {
    case "templates":
      return { tab, templates: await listTemplates(signal) };
    case "classes": {
      const [classes, templates] = await Promise.all([listClasses(signal), listTemplates(signal)]);
      return { tab, classes, templates };
    }
    case "tags": {
      const q = params.get("q")?.trim() ?? "";
      const page = intParam(params, "page", 1);
      const skip = (page - 1) * PAGE_SIZE;
      const tags = q ? await findTags(q, skip, PAGE_SIZE, signal) : await listTags(skip, PAGE_SIZE, signal);
      return { tab, tags, q, page };
    }
    case "taxonomy":
      return { tab, tree: await taxonomyTree(signal) };
    case "lists": {
      const lists = await listLists(signal);
      const listId = lists.find((l) => l.list_id === params.get("list"))?.list_id ?? lists[0]?.list_id ?? null;
      return { tab, lists, listId, records: listId ? await listRecords(listId, signal) : [] };
    }
  }
}
