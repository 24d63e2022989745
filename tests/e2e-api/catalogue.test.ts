import { describe, expect, it } from "vitest";
import { assetIn, freshWord, grant, groupOf, shown } from "./catalogue.helpers";
import { adminOf, personOf, servers } from "./runtime";

/**
 * The catalogue under `npm start`, over HTTP: what a field change and a move do to search.
 *
 * How the index is kept current (docs/decisions/045-search.md, functions/search/indexer.ts): database triggers mark
 * a changed document dirty in `search_dirty` in the change's own transaction; every changing /api request then
 * rebuilds the dirty documents in its `waitUntil` once the answer is sent, the cron does it for changes no request
 * followed (WebDAV, bulk), and every search first indexes whatever is still marked (`catchUp`). So the promise is
 * "the next search sees the change", and these flows assert exactly that: the first search after the change, no
 * polling. After an API change the `waitUntil` rebuild is normally done before the next request arrives, so what
 * these catch is the rebuild itself failing (raw statements with bound values through one batch, which D1 and
 * libSQL bind differently), the triggers, and the group filter's and access engine's SQL; the search's own
 * catch-up is what the WebDAV flow in shop.test.ts depends on. Every flow runs on both stores.
 */

describe.each(servers())("catalogue on $store", ({ url }) => {
  it("a field value set and then changed is what search finds, and the old value no longer is", async () => {
    const admin = await adminOf(url);
    const group = await groupOf(admin, `Каталог ${freshWord("g")}`);
    const asset = await assetIn(admin, group, "Сводка.txt");
    const field = await admin.call<{ field_def_id: string }>("/api/fields/templates", {
      json: { field_def_name: `Описание ${freshWord("f")}`, field_type: "text", field_setup: {} },
    });
    const [first, second] = [freshWord("old"), freshWord("new")];

    const { field_id } = await admin.call<{ field_id: string }>("/api/fields/create", {
      json: { entity_type: "asset", entity_id: asset, def_id: field.field_def_id, field_data: `Съёмка ${first}` },
    });
    expect(await shown(admin, first)).toEqual({ total: 1, names: ["Сводка.txt"] });

    await admin.call(`/api/fields/change/${field_id}`, { method: "PATCH", json: { field_data: `Съёмка ${second}` } });
    expect(await shown(admin, second)).toEqual({ total: 1, names: ["Сводка.txt"] });
    expect(await shown(admin, first)).toEqual({ total: 0, names: [] });
    // Filtered by the group too: the value is found where the asset is.
    expect((await shown(admin, second, { group })).total).toBe(1);
  });

  it("moving an asset, then a subgroup, moves their hits: group totals and what a reader of one group finds", async () => {
    const admin = await adminOf(url);
    const word = freshWord("mv");
    const [a, b] = [await groupOf(admin, `Приход ${freshWord("a")}`), await groupOf(admin, `Архив ${freshWord("b")}`)];
    const sub = await groupOf(admin, `Папка ${freshWord("s")}`, a);
    const moved = await assetIn(admin, a, `Первый ${word}.txt`);
    await assetIn(admin, a, `Второй ${word}.txt`);
    await assetIn(admin, sub, `Третий ${word}.txt`);
    // A reader of `a` only: its search shows what is under `a`, and nothing once it is moved out.
    const reader = await personOf(admin);
    await grant(admin, reader.id, a, ["read"]);

    const all = [`Второй ${word}.txt`, `Первый ${word}.txt`, `Третий ${word}.txt`];
    expect(await shown(reader.client, word)).toEqual({ total: 3, names: all });
    expect((await shown(admin, word, { group: a })).total).toBe(3);
    expect((await shown(admin, word, { group: b })).total).toBe(0);

    await admin.call("/api/group/move-member", { json: { el_id: moved, el_type: "asset", from: a, to: b } });
    expect(await shown(admin, word, { group: b })).toEqual({ total: 1, names: [`Первый ${word}.txt`] });
    expect((await shown(admin, word, { group: a })).total).toBe(2);
    expect(await shown(reader.client, word)).toEqual({ total: 2, names: [`Второй ${word}.txt`, `Третий ${word}.txt`] });

    // A group moved with what is in it: its assets follow it into `b`'s subtree and out of the reader's sight.
    await admin.call("/api/group/move-member", { json: { el_id: sub, el_type: "group", from: a, to: b } });
    expect(await shown(admin, word, { group: b })).toEqual({ total: 2, names: [`Первый ${word}.txt`, `Третий ${word}.txt`] });
    expect((await shown(admin, word, { group: a })).total).toBe(1);
    expect(await shown(reader.client, word)).toEqual({ total: 1, names: [`Второй ${word}.txt`] });
    expect((await shown(admin, word)).total).toBe(3);
  });
});
