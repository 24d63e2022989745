/**
 * Transcripts at scale (docs/decisions/059-transcripts.md): BENCH_SEGMENTS (default 100,000) segments of Russian
 * speech over BENCH_TRANSCRIPTS (default 200) video assets, imported as SRT files through
 * `POST /api/transcripts/{id}/import` of the local Worker (parse, checks, one upsert and its event, the search
 * trigger): the import rate in segments per second. Then `POST /api/search/query` as a user with read on the
 * group (the access filter is in every figure) for a word in another grammatical form than the speech has it, a
 * rare word and two words, each hit carrying the segment's `at`: p50/p95, next to the floor they stand on (whoami,
 * and a search finding nothing). The assets are seeded straight into the local D1 file before the Worker starts, as
 * tests/bench/search.mjs does. Prints figures; never fails on time.
 */
import { rmSync } from "node:fs";
import { createClient } from "@libsql/client";
import { benchApi, benchUsers, migratedDataDir, ms, percentile, startServer, timer } from "./server.mjs";

const SEGMENTS = Number(process.env.BENCH_SEGMENTS ?? 100_000);
const FILES = Number(process.env.BENCH_TRANSCRIPTS ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const PER_FILE = Math.ceil(SEGMENTS / FILES);
const { dataDir, file } = migratedDataDir("mam-bench-transcripts-");
const now = Math.floor(Date.now() / 1000);

// Speech: words in the forms they are spoken in, drawn with a Zipf-like skew (word k about 1/(k+1) as often as the first).
const speech = `и в не на я что он с как это мы по но вы так его все она да к у же за бы от меня ещё нет о из ему
  теперь когда даже вот вдруг ли если уже или ни быть был него до вас нибудь опять уж вам ведь там потом себя ничего
  говорили сказал знаете думаю было будет можно нужно очень хорошо сегодня вчера завтра здесь потому конечно просто
  город города городе улице дома домой окна двери реки реку лесу поле горы небо облака дождя снег солнца ночью утром
  вечером зимой весной летом осенью кошка кошки кошку собаки собаку птицы лошадей рыбу людей женщина мужчины ребёнка
  семьи друзья встречи праздника свадьбу концерте театре музея выставке картины фотографии машину поезде самолёте
  корабля лодке дороге вокзале площади парке саду цветы деревья воды огня ветра музыку песни голос фильма сцене съёмки
  монтаже звука камеры кадре интервью репортажа новостей школе уроке учителя студенты университете лекции экзамена`
  .split(/\s+/)
  .filter(Boolean);
/** Said in one segment in 5,000: what a rare word is. */
const rare = "аквамарином";

let seed = 39;
const rand = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const harmonic = speech.reduce((s, _, k) => s + 1 / (k + 1), 0);
const cumulative = [];
speech.reduce((s, _, k) => (cumulative[k] = s + 1 / (k + 1) / harmonic), 0);
const word = () => {
  const r = rand();
  let lo = 0;
  let hi = speech.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] < r) lo = mid + 1;
    else hi = mid;
  }
  return speech[lo];
};
const sentence = () => {
  const ws = Array.from({ length: 5 + Math.floor(rand() * 8) }, word);
  if (rand() < 1 / 5000) ws.splice(2, 0, rare);
  const s = ws.join(" ");
  return `${s[0].toUpperCase()}${s.slice(1)}.`;
};

const stamp = (t) => {
  const msTotal = Math.round(t * 1000);
  const pad = (n, w = 2) => String(n).padStart(w, "0");
  return `${pad(Math.floor(msTotal / 3600_000))}:${pad(Math.floor(msTotal / 60_000) % 60)}:${pad(Math.floor(msTotal / 1000) % 60)},${pad(msTotal % 1000, 3)}`;
};
/** An SRT of `n` cues, 2–5 s each with pauses, one or two lines of speech. */
const srtOf = (n) => {
  let t = 0;
  const cues = [];
  for (let i = 1; i <= n; i++) {
    const start = t + rand();
    const end = start + 2 + rand() * 3;
    t = end;
    const text = rand() < 0.3 ? `${sentence()}\n${sentence()}` : sentence();
    cues.push(`${i}\n${stamp(start)} --> ${stamp(end)}\n${text}\n`);
  }
  return cues.join("\n");
};

// ---- the assets: videos with one version each, in one group.
const uuid = (prefix, n) => `${prefix}${n.toString(16).padStart(12, "0")}`;
const groupId = "7a5c0000-0000-4000-8000-000000000000";
const assetId = (n) => uuid("7a5c0001-0000-4000-8000-", n);
const db = createClient({ url: `file:${file}` });
const rows = Array.from({ length: FILES }, (_, i) => i);
await db.batch(
  [
    `INSERT INTO groups (group_id, group_name, name_key, parent_id, path, depth, ctime, mtime) VALUES ('${groupId}', 'Бенч расшифровок', 'бенч расшифровок', NULL, '/${groupId}/', 1, ${now}, ${now})`,
    `INSERT INTO assets (asset_id, name, owner, creator, mimetype, ctime, mtime, atime) VALUES ${rows
      .map((i) => `('${assetId(i)}', 'Интервью ${i}.mp4', 'bench', 'bench', 'video/mp4', ${now - i}, ${now}, ${now})`)
      .join(", ")}`,
    `INSERT INTO group_members (group_id, el_id, el_type, ctime) SELECT '${groupId}', asset_id, 'asset', ctime FROM assets WHERE owner = 'bench'`,
    `INSERT INTO versions (asset_id, version, desc, ctime) SELECT asset_id, 1, '', ctime FROM assets WHERE owner = 'bench'`,
    `INSERT INTO variants (variant_id, asset_id, version, storage_id, object_key, name, mime_type, variant_type, content_size, file_name, etag, ctime)
     SELECT 'deadbeef' || substr(asset_id, 9), asset_id, 1, '00000000-0000-0000-0000-000000000001', 'k/' || asset_id, 'initial', 'video/mp4', 'initial', 1000, name, 'e', ctime FROM assets WHERE owner = 'bench'`,
  ],
  "write",
);
db.close();
const files = rows.map(() => srtOf(PER_FILE));
const rareFiles = files.filter((f) => f.includes(rare)).length;

const server = await startServer({ dataDir });
try {
  const { post } = benchApi(server.url);
  const { adminBearer, bearer } = await benchUsers(post, groupId);
  console.log(`${FILES} videos × ${PER_FILE} segments = ${FILES * PER_FILE} segments; «${rare}» in ${rareFiles} of the files`);

  // ---- import: one SRT a request, one after another, as an archive's files are brought in.
  const perFile = [];
  const t0 = performance.now();
  for (const [i, srt] of files.entries()) {
    const t = performance.now();
    const res = await fetch(`${server.url}/api/transcripts/${assetId(i)}/import?language=ru`, {
      method: "POST",
      headers: { "Content-Type": "application/x-subrip", Authorization: `Bearer ${adminBearer}` },
      body: srt,
    });
    if (!res.ok) throw new Error(`import ${i}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    await res.arrayBuffer();
    perFile.push(performance.now() - t);
  }
  const importSeconds = (performance.now() - t0) / 1000;
  console.log(
    `import: ${Math.round((FILES * PER_FILE) / importSeconds)} segments/s (${FILES} files of ${PER_FILE} segments in ${importSeconds.toFixed(1)} s; a file p50 ${ms(percentile(perFile, 50))}, p95 ${ms(percentile(perFile, 95))})`,
  );

  // ---- search: the first one indexes what the imports marked; then the figures.
  const query = (q) => post("/api/search/query", bearer, { q, filters: { group: groupId }, take: 50 });
  const t1 = performance.now();
  await query("кошкой");
  console.log(`first search after the imports (indexes the ${FILES} documents): ${ms(performance.now() - t1)}`);
  const time = timer(RUNS, 44);
  // What a search stands on, timed alike: the bearer check and the HTTP path (whoami), and a search finding nothing.
  const { call } = benchApi(server.url);
  await time("floor: whoami", () => call("/api/auth/whoami", bearer));
  await time("floor: a search finding nothing", () => query("слонов"));
  for (const [label, q] of [
    ["«кошкой» (spoken as кошка/кошки/кошку)", "кошкой"],
    [`rare «аквамарин» (${rareFiles} files)`, "аквамарин"],
    ["two words «собака музыка»", "собака музыка"],
  ]) {
    const answer = await time(label, () => query(q));
    const withAt = answer.items.filter((i) => typeof i.at === "number").length;
    console.log(
      `  ${answer.total} found, ${withAt} of ${answer.items.length} on the page with \`at\`${answer.items[0] ? `; first: at ${answer.items[0].at} s, «${answer.items[0].snippet.slice(0, 80)}»` : ""}`,
    );
  }
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
