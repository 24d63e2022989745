import { afterEach, describe, expect, it, vi } from "vitest";
import { enqueueTree, readDrop } from "../../app/lib/upload-drop";

/**
 * Dropped folders keep their structure as subgroups. The browser's FileSystemEntry objects are
 * stood in for by plain objects of the same shape; the group API by a fetch stub.
 */

type Entry = Record<string, unknown>;
const fileEntry = (name: string): Entry => ({
  isFile: true,
  isDirectory: false,
  name,
  file: (ok: (f: File) => void) => ok(new File([name], name)),
});
function folderEntry(name: string, children: Entry[]): Entry {
  return {
    isFile: false,
    isDirectory: true,
    name,
    // Hands the children out in batches of two, then an empty batch, as readEntries does.
    createReader: () => {
      let at = 0;
      return { readEntries: (ok: (e: Entry[]) => void) => ok(children.slice(at, (at += 2))) };
    },
  };
}
const transfer = (entries: Entry[], loose: File[] = []) =>
  ({
    items: [
      ...entries.map((entry) => ({ kind: "file", webkitGetAsEntry: () => entry, getAsFile: () => null })),
      ...loose.map((file) => ({ kind: "file", webkitGetAsEntry: () => null, getAsFile: () => file })),
    ],
    files: [],
  }) as unknown as DataTransfer;

afterEach(() => vi.unstubAllGlobals());

describe("dropped folders", () => {
  it("reads nested folders in full, batch after batch", async () => {
    const tree = await readDrop(
      transfer(
        [
          fileEntry("a.png"),
          folderEntry("Съёмка", [fileEntry("1.mp4"), fileEntry("2.mp4"), fileEntry("3.mp4"), folderEntry("Звук", [fileEntry("s.wav")])]),
        ],
        [new File(["x"], "loose.pdf")],
      ),
    );
    expect(tree.files.map((f) => f.name)).toEqual(["loose.pdf", "a.png"]);
    expect(tree.folders.map((f) => [f.name, f.files.map((x) => x.name)])).toEqual([["Съёмка", ["1.mp4", "2.mp4", "3.mp4"]]]);
    expect(tree.folders[0].folders[0]).toMatchObject({ name: "Звук", files: [expect.objectContaining({ name: "s.wav" })] });
  });

  it("creates a subgroup per folder under its parent and queues each file into its own group", async () => {
    const created: { parent: string; group_name: string }[] = [];
    vi.stubGlobal("fetch", async (_url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body));
      created.push(body);
      return new Response(JSON.stringify({ group_id: `id-${body.group_name}` }), { headers: { "Content-Type": "application/json" } });
    });
    const tree = await readDrop(
      transfer([fileEntry("a.png"), folderEntry("Съёмка", [fileEntry("1.mp4"), folderEntry("Звук", [fileEntry("s.wav")])])]),
    );
    const queued: [string, string[]][] = [];
    const heard: [string, string][] = [];
    await enqueueTree(
      tree,
      "g0",
      (files, group) => queued.push([group, files.map((f) => f.name)]),
      (parent, group) => void heard.push([parent, group]),
    );

    expect(created).toEqual([
      { parent: "g0", group_name: "Съёмка" },
      { parent: "id-Съёмка", group_name: "Звук" },
    ]);
    expect(queued).toEqual([
      ["g0", ["a.png"]],
      ["id-Съёмка", ["1.mp4"]],
      ["id-Звук", ["s.wav"]],
    ]);
    // Each new subgroup is announced with its parent (the open list and the tree refresh from it).
    expect(heard).toEqual([
      ["g0", "id-Съёмка"],
      ["id-Съёмка", "id-Звук"],
    ]);
  });
});
