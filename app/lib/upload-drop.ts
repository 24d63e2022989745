import * as groups from "../../shared/groups/contract";
import { call } from "./api";

/**
 * What was dropped, as a tree: folders keep their structure and become subgroups. Entries must be
 * taken from the DataTransfer during the drop event itself; reading them may go on afterwards.
 */
export interface DroppedFolder {
  name: string;
  files: File[];
  folders: DroppedFolder[];
}

interface Entry {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  file?(success: (file: File) => void, failure: (error: unknown) => void): void;
  createReader?(): { readEntries(success: (entries: Entry[]) => void, failure: (error: unknown) => void): void };
}

async function readFolder(entry: Entry): Promise<DroppedFolder> {
  const folder: DroppedFolder = { name: entry.name, files: [], folders: [] };
  const reader = entry.createReader!();
  // readEntries hands out a directory in batches (100 in Chromium) until it returns an empty one.
  for (;;) {
    const batch = await new Promise<Entry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    for (const child of batch) await addEntry(folder, child);
  }
  return folder;
}

async function addEntry(into: DroppedFolder, entry: Entry) {
  if (entry.isDirectory) into.folders.push(await readFolder(entry));
  else if (entry.isFile) into.files.push(await new Promise<File>((resolve, reject) => entry.file!(resolve, reject)));
}

/** Call synchronously in the drop handler; the returned promise resolves with the whole tree. */
export function readDrop(data: DataTransfer): Promise<DroppedFolder> {
  const root: DroppedFolder = { name: "", files: [], folders: [] };
  const entries: Entry[] = [];
  const loose: File[] = [];
  for (const item of Array.from(data.items ?? [])) {
    if (item.kind !== "file") continue;
    const entry = (item.webkitGetAsEntry?.() ?? null) as Entry | null;
    // Synthetic drags (and some browsers) give no entry: the plain file is all there is.
    if (entry) entries.push(entry);
    else {
      const file = item.getAsFile();
      if (file) loose.push(file);
    }
  }
  if (entries.length === 0 && loose.length === 0) loose.push(...Array.from(data.files ?? []));
  root.files.push(...loose);
  return entries.reduce((chain, entry) => chain.then(() => addEntry(root, entry)), Promise.resolve()).then(() => root);
}

/**
 * Creates a subgroup for each folder (depth first) and hands every file with its group to `enqueue`;
 * `created` hears of each new subgroup as soon as it exists (the open list and the tree show it); the next
 * folder waits for it, so a refresh it starts sees every subgroup made before.
 */
export async function enqueueTree(
  folder: DroppedFolder,
  groupId: string,
  enqueue: (files: File[], groupId: string) => void,
  created: (parentId: string, groupId: string) => void | Promise<void> = () => undefined,
): Promise<void> {
  if (folder.files.length) enqueue(folder.files, groupId);
  for (const sub of folder.folders) {
    const { group_id } = await call(groups.createGroup, { body: { parent: groupId, group_name: sub.name } });
    await created(groupId, group_id);
    await enqueueTree(sub, group_id, enqueue, created);
  }
}
