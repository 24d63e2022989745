/**
 * Search at scale (docs/decisions/045-search.md): BENCH_ASSETS (default 1,000,000) assets with three-word
 * Russian/English names, 3 tags and 2 text field values each, words drawn with a Zipf-like skew so there are
 * common and rare ones. The assets and their index are written straight into the local D1 SQLite file (the
 * index by the Worker's own text functions: functions/search/text.ts) before the Worker starts; then the
 * queries run through the local Worker as a user with read on the group (the access filter is in every
 * figure), and the same FTS queries on the raw SQLite file give the floor. Also: 100,000 vectors searched
 * by /api/search/vector (a local stand-in embeddings endpoint answers the query vector), the delay from a
 * change to the search that finds it, and the database size per asset. Prints figures; never fails on time.
 */
import { statSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { createClient } from "@libsql/client";
import { tsImport } from "tsx/esm/api";
import { benchApi, benchUsers, migratedDataDir, ms, percentile, startServer, timer } from "./server.mjs";

const { stemText, fold } = await tsImport("../../functions/search/text.ts", import.meta.url);
const { placementKey } = await tsImport("../../functions/search/placement.ts", import.meta.url);

const ASSETS = Number(process.env.BENCH_ASSETS ?? 1_000_000);
const VECTORS = Math.min(ASSETS, Number(process.env.BENCH_VECTORS ?? 100_000));
const DIMS = 384;
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const { dataDir, file } = migratedDataDir("mam-bench-search-");
const db = createClient({ url: `file:${file}` });
const now = Math.floor(Date.now() / 1000);

const ru = `море берег закат рассвет город улица дом окно дверь крыша мост река озеро лес поле гора небо облако дождь снег
  солнце луна звезда ночь утро вечер день зима весна лето осень кошка собака птица лошадь корова рыба медведь волк лиса заяц
  человек женщина мужчина ребёнок семья друг встреча праздник свадьба концерт театр музей выставка картина фото портрет пейзаж
  машина поезд самолёт корабль лодка велосипед дорога вокзал аэропорт порт площадь парк сад цветок дерево трава камень песок
  вода огонь ветер туман гроза радуга маяк остров пляж волна скала пещера водопад долина холм тропа карта книга письмо газета
  журнал интервью репортаж новости спорт футбол хоккей теннис бег плавание лыжи коньки стадион матч команда игрок тренер судья
  школа урок учитель студент университет лекция экзамен наука опыт лаборатория завод фабрика рабочий станок металл уголь нефть
  газ энергия свет лампа экран камера объектив кадр сцена съёмка монтаж звук музыка песня голос хор оркестр скрипка рояль гитара
  барабан танец балет опера кино фильм сериал актёр режиссёр сценарий премьера афиша билет зал публика аплодисменты красный
  синий зелёный жёлтый белый чёрный старый новый большой маленький тёплый холодный тихий громкий быстрый медленный весёлый
  грустный летний зимний ночной утренний городской сельский морской горный лесной речной северный южный`
  .split(/\s+/)
  .filter(Boolean);
const en = `sea shore sunset sunrise city street house window door roof bridge river lake forest field mountain sky cloud rain
  snow sun moon star night morning evening winter spring summer autumn cat dog bird horse fish bear wolf fox people family
  friend meeting holiday wedding concert theatre museum exhibition painting photo portrait landscape car train plane ship boat
  road station airport harbour square park garden flower tree stone sand water fire wind fog storm rainbow lighthouse island
  beach wave rock cave waterfall valley hill trail map book letter`
  .split(/\s+/)
  .filter(Boolean);
const vocab = [...ru, ...en];
/** Words a name carries once in a while (1 in 2,000 assets each): what a rare word is. */
const rareWords = `аквамарин бирюза янтарь малахит гранит базальт кварц обсидиан нефрит агат`.split(" ");

// Deterministic draws with a Zipf-like skew: word k is picked about 1/(k+1) as often as the first.
let seed = 42;
const rand = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const harmonic = vocab.reduce((s, _, k) => s + 1 / (k + 1), 0);
const cumulative = [];
vocab.reduce((s, _, k) => (cumulative[k] = s + 1 / (k + 1) / harmonic), 0);
const word = () => {
  const r = rand();
  let lo = 0;
  let hi = vocab.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] < r) lo = mid + 1;
    else hi = mid;
  }
  return vocab[lo];
};
const phrase = (n) => Array.from({ length: n }, word).join(" ");
const cap = (s) => s[0].toUpperCase() + s.slice(1);

const uuid = (prefix, n) => `${prefix}${n.toString(16).padStart(12, "0")}`;
const groupId = "5ea7c400-0000-4000-8000-000000000000";
const assetId = (n) => uuid("5ea7c401-0000-4000-8000-", n);
const TAGS = 1000;
const tagId = (n) => uuid("5ea7c402-0000-4000-8000-", n);
const tagNames = Array.from({ length: TAGS }, (_, k) => `${cap(vocab[k % vocab.length])} ${k}`);
const tpl = (k) => uuid("5ea7c403-0000-4000-8000-", k);
const mimes = ["image/jpeg", "image/png", "video/mp4", "audio/mpeg", "application/pdf"];

const t0 = performance.now();
await db.batch(
  [
    `INSERT INTO groups (group_id, group_name, name_key, parent_id, path, depth, ctime, mtime) VALUES ('${groupId}', 'Бенч поиска', 'бенч поиска', NULL, '/${groupId}/', 1, ${now}, ${now})`,
    // Every asset sits in the one group: one placement set (functions/search/placement.ts), as the indexer records it.
    {
      sql: "INSERT INTO search_placement_sets (ps_id, key, rep_id) VALUES (1, ?, ?)",
      args: [placementKey({ groups: [groupId], owner: "" }), assetId(0)],
    },
    `INSERT INTO field_templates (field_def_id, field_def_name, field_type, field_setup, field_priority, ctime, mtime) VALUES
      ('${tpl(1)}', 'Описание', 'text', '{}', 1, ${now}, ${now}), ('${tpl(2)}', 'Место', 'text', '{}', 2, ${now}, ${now})`,
    ...Array.from({ length: TAGS / 100 }, (_, c) => ({
      sql: `INSERT INTO tags (tag_id, tag_name, name_key, ctime, mtime) VALUES ${Array.from({ length: 100 }, () => "(?, ?, ?, ?, ?)").join(", ")}`,
      args: Array.from({ length: 100 }, (_, k) => c * 100 + k).flatMap((n) => [tagId(n), tagNames[n], fold(tagNames[n]), now, now]),
    })),
  ],
  "write",
);

const CHUNK = 5000;
/** Multi-row INSERTs of `rows` (arrays of values), 200 rows a statement: one statement per row is the seed's bottleneck. */
const inserts = (head, width, rows) => {
  const out = [];
  for (let i = 0; i < rows.length; i += 200) {
    const part = rows.slice(i, i + 200);
    out.push({ sql: `${head} VALUES ${part.map(() => `(${Array(width).fill("?").join(", ")})`).join(", ")}`, args: part.flat() });
  }
  return out;
};
/** How many assets hold each word (names, tags, fields), to pick a common and a rare one honestly. */
/** @type {Map<string, number>} */
const docFreq = new Map();
for (let start = 0; start < ASSETS; start += CHUNK) {
  /** @type {Record<"assets" | "members" | "tags" | "fields" | "docs" | "fts", any[][]>} */
  const t = { assets: [], members: [], tags: [], fields: [], docs: [], fts: [] };
  for (let i = start; i < Math.min(ASSETS, start + CHUNK); i++) {
    const id = assetId(i);
    const mime = mimes[i % mimes.length];
    const extra = rand() < rareWords.length / 2000 ? ` ${rareWords[Math.floor(rand() * rareWords.length)]}` : "";
    const name = `${cap(phrase(3))}${extra} ${i}.${mime.split("/")[1]}`;
    const tags = [...new Set([0, 1, 2].map(() => Math.floor(rand() * rand() * TAGS)))];
    const description = cap(phrase(6));
    const place = cap(phrase(2));
    const ctime = now - i * 30;
    const body = [...tags.map((k) => tagNames[k]), description, place].join("\n");
    for (const w of new Set(fold(`${name} ${body}`).match(/\p{L}+/gu))) docFreq.set(w, (docFreq.get(w) ?? 0) + 1);
    t.assets.push([id, name, mime, ctime, ctime, ctime]);
    t.members.push([groupId, id, ctime]);
    for (const k of tags) t.tags.push([tagId(k), id, ctime]);
    t.fields.push([id, description, tpl(1), description, ctime, ctime], [id, place, tpl(2), place, ctime, ctime]);
    t.docs.push([i + 1, id, name, fold(name), mime, ctime, 1000 + (i % 5000) * 1000, body]);
    t.fts.push([i + 1, stemText(name), stemText(tags.map((k) => tagNames[k]).join(" ")), stemText(`${description} ${place}`)]);
  }
  await db.batch(
    [
      ...inserts(
        "INSERT INTO assets (asset_id, name, mimetype, ctime, mtime, atime, owner, creator)",
        8,
        // Owned by a hundred people, as an archive is: one owner of everything would skew the planner's statistics.
        t.assets.map((r, k) => [...r, `bench-${k % 100}`, `bench-${k % 100}`]),
      ),
      ...inserts(
        "INSERT INTO group_members (group_id, el_id, ctime, el_type)",
        4,
        t.members.map((r) => [...r, "asset"]),
      ),
      ...inserts(
        "INSERT INTO entity_tags (tag_id, entity_id, ctime, entity_type)",
        4,
        t.tags.map((r) => [...r, "asset"]),
      ),
      ...inserts(
        "INSERT INTO field_values (entity_id, field_data, def_id, value_text, ctime, mtime, field_id, entity_type, user_id)",
        9,
        t.fields.map(([id, text, ...rest]) => [id, JSON.stringify(text), ...rest, crypto.randomUUID(), "asset", "bench"]),
      ),
      ...inserts(
        "INSERT INTO search_docs (doc_id, el_id, name, sort_name, mime, ctime, size, body, el_type, ps_id)",
        10,
        t.docs.map((r) => [...r, "asset", 1]),
      ),
      ...inserts("INSERT INTO search_fts (rowid, name, tags, body)", 4, t.fts),
    ],
    "write",
  );
  if (start % 100_000 === 0 && start) console.log(`  … ${start} assets`);
}
// The seed wrote the index itself: what its triggers marked is already indexed; the vocabulary is the words' own.
await db.batch(
  [
    "DELETE FROM search_dirty",
    { sql: `INSERT INTO search_vocab (word) VALUES ${vocab.map(() => "(?)").join(", ")} ON CONFLICT DO NOTHING`, args: vocab.map(fold) },
    "INSERT INTO search_fts (search_fts) VALUES ('optimize')",
  ],
  "write",
);
console.log(`Seeded ${ASSETS} assets (names, 3 tags, 2 text fields) and their index: ${((performance.now() - t0) / 1000).toFixed(1)} s`);

// Vectors as embeddings are: clustered by topic (a random topic direction plus noise), so an approximate index
// has structure to find and its recall means something. The index is built as the cron builds it
// (functions/search/ivf.ts: k-means on a sample, every vector filed under its nearest centroid).
const { kmeans, listCount, nearestList, quantize, SAMPLE_PER_LIST } = await tsImport("../../functions/search/ivf.ts", import.meta.url);
const unit = (v) => {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};
const randomUnit = () => unit(Float32Array.from({ length: DIMS }, () => rand() - 0.5));
const topics = Array.from({ length: 500 }, randomUnit);
const nearTopic = () => {
  const topic = topics[Math.floor(rand() * topics.length)];
  return unit(topic.map((x) => x + (rand() - 0.5) * 0.12));
};
/** @type {Float32Array[]} */
const vectors = Array.from({ length: VECTORS }, nearTopic);
const tTrain = performance.now();
const sample = Array.from({ length: Math.min(VECTORS, listCount(VECTORS) * SAMPLE_PER_LIST) }, () => vectors[Math.floor(rand() * VECTORS)]);
const centroids = VECTORS >= 2000 ? kmeans(sample, listCount(VECTORS), 6, rand) : [];
const lists = vectors.map((v) => (centroids.length ? nearestList(centroids, v) : null));
const quantized = vectors.map(quantize);
console.log(
  `IVF index: ${centroids.length} lists over ${VECTORS} vectors, trained and filed in ${((performance.now() - tTrain) / 1000).toFixed(1)} s (in Node)`,
);
await db.batch(
  centroids.map((c, list) => ({
    sql: "INSERT INTO search_vector_lists (model, list, centroid, trained_on) VALUES ('bench', ?, ?, ?)",
    args: [list, new Uint8Array(c.buffer), VECTORS],
  })),
  "write",
);
for (let start = 0; start < VECTORS; start += CHUNK) {
  const stmts = [];
  for (let i = start; i < Math.min(VECTORS, start + CHUNK); i++)
    stmts.push({
      sql: "INSERT INTO search_vectors (el_id, model, vec, list, vec8, scale) VALUES (?, 'bench', ?, ?, ?, ?)",
      args: [assetId(i), new Uint8Array(vectors[i].buffer), lists[i], new Uint8Array(quantized[i].q.buffer), quantized[i].scale],
    });
  await db.batch(stmts, "write");
}
await db.execute("ANALYZE");
// Everything into the file itself: its size is then the database's.
await db.execute("PRAGMA wal_checkpoint(TRUNCATE)");
db.close();
const seeded = statSync(file).size;
console.log(
  `Database: ${(seeded / 1024 ** 2).toFixed(0)} MiB, ${(seeded / ASSETS / 1024).toFixed(2)} KiB per asset (all tables; ${VECTORS} vectors of ${DIMS} dims included)`,
);

// A stand-in embeddings endpoint: any text gets a fixed vector near one of the topics (the model's time is not
// the index's). The exact top 20 (every vector compared) is what recall is measured against.
const query = nearTopic();
const queryVector = Array.from(query);
const exactTop = vectors
  .map((v, i) => ({ score: v.reduce((s, x, k) => s + x * query[k], 0), id: assetId(i) }))
  .sort((a, b) => b.score - a.score)
  .slice(0, 20)
  .map((h) => h.id);
const embeddings = createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    const { input } = JSON.parse(body);
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ data: input.map((_, index) => ({ index, embedding: queryVector })) }));
  });
});
await new Promise((r) => embeddings.listen(0, "127.0.0.1", () => r(undefined)));
const { port: embeddingsPort } = /** @type {import("node:net").AddressInfo} */ (embeddings.address());
process.env.EMBEDDINGS_URL = `http://127.0.0.1:${embeddingsPort}/v1/embeddings`;
process.env.EMBEDDINGS_MODEL = "bench";

const server = await startServer({ dataDir });
let failed = false;
try {
  const { call, post } = benchApi(server.url);
  const { adminBearer, bearer } = await benchUsers(post, groupId);
  const time = timer(RUNS, 60);
  // A common word is in about 5% of the assets, a rare one in about 0.05%; the phrase pairs two words of ~5%.
  /** @param {number} share */
  const byShare = (share) =>
    [...docFreq]
      .filter(([w]) => w.length > 3 && [...ru, ...rareWords].map(fold).includes(w))
      .sort((a, b) => Math.abs(a[1] / ASSETS - share) - Math.abs(b[1] / ASSETS - share));
  const [[common, commonN], [second]] = byShare(0.05);
  const [[rare, rareN]] = byShare(0.0005);
  const twoWords = `${common} ${second}`;
  console.log(`common word «${common}» is in ${commonN} assets, rare word «${rare}» in ${rareN}`);
  /** @type {[string, { q: string, filters?: object }][]} */
  const queries = [
    [`common word «${common}»`, { q: common }],
    [`rare word «${rare}»`, { q: rare }],
    [`two words «${twoWords}» + mime and tag filters`, { q: twoWords, filters: { mime: ["image"], tags: [tagId(0)] } }],
  ];
  // The first search for the common word is answered by FTS and starts building the word's index
  // (functions/search/frequent.ts); the figures below are of the searches after it is built.
  const raw = createClient({ url: `file:${file}` });
  const first = performance.now();
  await post("/api/search/query", bearer, { q: common, take: 50 });
  console.log(`${`first search for «${common}» (FTS; starts building its index)`.padEnd(60)} ${ms(performance.now() - first)}`);
  const building = performance.now();
  while (!(await raw.execute("SELECT 1 FROM search_frequent_terms WHERE ready = 1")).rows.length) {
    if (performance.now() - building > 600_000) throw new Error("the common word's index was not built in 10 minutes");
    await new Promise((r) => setTimeout(r, 100));
  }
  const built = performance.now() - building;
  const postings = (await raw.execute("SELECT count(*) AS n FROM search_term_postings")).rows[0].n;
  const counts = (await raw.execute("SELECT count(*) AS n FROM search_term_counts")).rows[0].n;
  const tables = [
    "search_term_postings",
    "search_term_postings_impact_idx",
    "search_term_postings_doc_idx",
    "search_term_counts",
    "search_doc_facets",
  ];
  const { bytes } = (
    await raw.execute({
      sql: `SELECT sum(pgsize) AS bytes FROM dbstat WHERE aggregate = TRUE AND name IN (${tables.map(() => "?").join(", ")})`,
      args: tables,
    })
  ).rows[0];
  console.log(
    `${`its index built (${postings} postings, ${counts} counts, ${(Number(bytes) / 1024 ** 2).toFixed(1)} MiB)`.padEnd(60)} ${ms(built)} after the first search answered`,
  );
  console.log("-- through the local Worker, as a user with read on the group (facet counts included)");
  for (const [label, body] of queries) {
    const answer = await time(label, () => post("/api/search/query", bearer, { ...body, take: 50 }));
    console.log(`${"".padEnd(4)}total ${answer.total}, ${answer.items.length} on the page, ${answer.facets.tags.length} tag facets`);
  }
  await time("autocomplete «мор»", () => call(`/api/search/autocomplete?q=${encodeURIComponent("мор")}`, bearer));
  await time("autocomplete with a typo «маяе»", () => call(`/api/search/autocomplete?q=${encodeURIComponent("маяе")}`, bearer));
  const found = await time(`vector top-20 over ${VECTORS} vectors (IVF)`, () =>
    post("/api/search/vector", bearer, { q: "море на закате", take: 20 }),
  );
  const recall = found.filter((h) => exactTop.includes(h.el_id)).length / exactTop.length;
  console.log(`${"".padEnd(4)}recall@20 against the exact top 20: ${(recall * 100).toFixed(0)} %`);

  // A change, then searches until one finds it.
  const lags = [];
  for (let k = 0; k < 10; k++) {
    const marker = `метка${k}x${now}`;
    const t = performance.now();
    await call(`/api/asset/${assetId(k)}`, adminBearer, { method: "PATCH", body: JSON.stringify({ asset_name: `${marker}.jpg` }) });
    while ((await post("/api/search/query", bearer, { q: marker, take: 1 })).total === 0);
    lags.push(performance.now() - t);
  }
  console.log(
    `${"change → found by search (rename, then query)".padEnd(60)} p50 ${ms(percentile(lags, 50))}  max ${ms(Math.max(...lags))}`,
  );

  console.log("-- the floor: the same FTS queries on the raw SQLite file (no Worker, no access filter, no facets)");
  const { parseQuery } = await tsImport("../../functions/search/match.ts", import.meta.url);
  for (const [label, body] of queries) {
    const fts = parseQuery(body.q).fts;
    await time(label, async () => {
      await raw.execute({
        sql: "SELECT rowid, bm25(search_fts, 10.0, 5.0, 1.0) AS r FROM search_fts WHERE search_fts MATCH ? ORDER BY r LIMIT 50",
        args: [fts],
      });
      await raw.execute({ sql: "SELECT count(*) FROM search_fts WHERE search_fts MATCH ?", args: [fts] });
    });
  }
  raw.close();
} catch (err) {
  failed = true;
  console.error(err);
} finally {
  await server.stop();
  embeddings.close();
  if (process.env.BENCH_KEEP) console.log(`kept: ${file}`);
  else rmSync(dataDir, { recursive: true, force: true });
}
if (failed) process.exit(1);
