/**
 * The asset browser in headless Chromium on a group of 100,000 assets: JavaScript shipped for /mam
 * (gzipped), first contentful paint, the time until the first 50 items are rendered, and the number of
 * DOM rows while scrolling (it must stay bounded); then the members API's first and last pages in each
 * server-side sort. Seeds the local D1 SQLite file directly, as access.mjs does, before the Worker starts.
 * Aims: < 250 KB gzipped JS, first 50 items < 1 s locally.
 */
import { rmSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { createClient } from "@libsql/client";
import { chromium } from "@playwright/test";
import { benchAdmin, kib, migratedDataDir, ms, startServer } from "./server.mjs";

const ASSETS = 100_000;
const { dataDir, file } = migratedDataDir("mam-bench-mam-");
const now = Math.floor(Date.now() / 1000);
const q = (s) => `'${String(s).replace(/'/g, "''")}'`;

const db = createClient({ url: `file:${file}` });
const groupId = crypto.randomUUID();
const t0 = performance.now();
await db.batch(
  [
    `INSERT INTO groups (group_id, group_name, name_key, parent_id, path, depth, ctime, mtime)
     VALUES (${q(groupId)}, 'Бенч 100000', 'бенч 100000', NULL, ${q(`/${groupId}/`)}, 1, ${now}, ${now})`,
    `INSERT INTO assets (asset_id, name, owner, creator, mimetype, ctime, mtime, atime)
     WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ASSETS})
     SELECT 'b0000000-0000-4000-8000-' || printf('%012x', i), printf('Кадр %06d.jpg', i), 'bench', 'bench', 'image/jpeg', ${now} - ${ASSETS} + i, ${now}, ${now} FROM n`,
    `INSERT INTO group_members (group_id, el_id, el_type, ctime) SELECT ${q(groupId)}, asset_id, 'asset', ctime FROM assets WHERE owner = 'bench'`,
    `INSERT INTO versions (asset_id, version, desc, ctime) SELECT asset_id, 1, '', ctime FROM assets WHERE owner = 'bench'`,
    `INSERT INTO variants (variant_id, asset_id, version, storage_id, object_key, name, mime_type, variant_type, content_size, file_name, etag, ctime)
     SELECT 'deadbeef' || substr(asset_id, 9), asset_id, 1, '00000000-0000-0000-0000-000000000001', 'k/' || asset_id, 'initial', 'image/jpeg', 'initial', 1000 + abs(random()) % 10000000, name, 'e', ctime FROM assets WHERE owner = 'bench'`,
    "ANALYZE",
  ],
  "write",
);
db.close();
console.log(`Seeded one group with ${ASSETS} assets: ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const server = await startServer({ dataDir });
const url = server.url;
let browser;
let failed = false;
try {
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  // Signed in as the app itself would be: the sign-in answer's httpOnly cookies (refresh, and the page-session
  // cookie the server's page loaders read on the first visit) land in the context's cookie jar.
  const login = await context.request.post(`${url}/api/auth/login`, { data: benchAdmin });
  if (!login.ok()) throw new Error(`sign-in failed: ${login.status()}`);
  const tokens = await login.json();
  // Warm-up visit: the Worker's first requests compile code; the figures below are for a returning user's
  // first view of the group (the first page then comes with the HTML), caches of the browser cleared.
  const warm = await context.newPage();
  await warm.goto(`${url}/mam/${groupId}`);
  await warm.waitForSelector("[data-item]");
  await warm.close();

  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.clearBrowserCache");
  const scripts = new Map();
  page.on("response", async (res) => {
    if (res.request().resourceType() === "script" && res.ok())
      scripts.set(
        res.url(),
        res.body().then(
          (b) => (b.length ? gzipSync(b).length : 0),
          () => 0,
        ),
      );
  });
  // Not waiting for the load event (all the modules): items may be on screen well before it. The check runs
  // every animation frame and notes the time itself, so no round trip to the page is counted.
  await page.goto(`${url}/mam/${groupId}`, { waitUntil: "commit" });
  await page.waitForFunction(() => {
    const shown = document.querySelectorAll("[data-item]").length > 0 && document.body.innerText.includes("Загружено: 50");
    if (shown) /** @type {Window & { firstItemsAt?: number }} */ (window).firstItemsAt ??= performance.now();
    return shown;
  });
  await page.waitForFunction(() => performance.getEntriesByName("first-contentful-paint").length > 0);
  const timing = await page.evaluate(() => ({
    ttfb: /** @type {PerformanceNavigationTiming | undefined} */ (performance.getEntriesByType("navigation")[0])?.responseStart ?? NaN,
    fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
    first50: /** @type {Window & { firstItemsAt?: number }} */ (window).firstItemsAt ?? NaN,
    rows: document.querySelectorAll("[data-row]").length,
  }));
  await page.waitForLoadState("networkidle");
  const sizes = await Promise.all(scripts.values());
  const jsGzip = sizes.reduce((a, b) => a + b, 0);
  console.log(
    `JS shipped for /mam/{id} (gzipped, ${sizes.length} files)`.padEnd(48),
    kib(jsGzip),
    jsGzip < 250 * 1024 ? "(aim < 250 KB: ok)" : "(aim < 250 KB: OVER)",
  );
  console.log("first byte of the HTML".padEnd(48), ms(timing.ttfb));
  console.log("first contentful paint".padEnd(48), ms(timing.fcp));
  console.log(
    "first 50 items rendered (from navigation)".padEnd(48),
    ms(timing.first50),
    timing.first50 < 1000 ? "(aim < 1 s: ok)" : "(aim < 1 s: OVER)",
  );

  // Scrolling: page after page loads; the rows in the DOM stay a window's worth.
  const list = page.getByRole("list", { name: "Содержимое группы" });
  let maxRows = timing.rows;
  const scrollStart = performance.now();
  for (let i = 0; i < 40; i++) {
    await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    const target = `Загружено: ${50 * (i + 2)}`;
    await page.waitForFunction((t) => document.body.innerText.includes(t), target);
    maxRows = Math.max(maxRows, await page.locator("[data-row]").count());
  }
  const loaded = await page.locator("[data-item]").count();
  console.log(
    `scrolled to 2050 items loaded`.padEnd(48),
    ms(performance.now() - scrollStart),
    `(${ms((performance.now() - scrollStart) / 40)} per page)`,
  );
  console.log("DOM rows while scrolling (max)".padEnd(48), maxRows, `(items in the DOM now: ${loaded})`);

  // The members API sorted on the server (sort copies and their indexes): the first and the last page of
  // the 100,000, median of 5 calls each, as the contents list asks for them.
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const query of ["", "sort=name", "sort=name&order=desc", "sort=ctime", "sort=size&order=desc"]) {
    for (const [label, skip] of [
      ["first", 0],
      ["last", ASSETS - 50],
    ]) {
      const times = [];
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        const res = await fetch(`${url}/api/group/members/${groupId}?skip=${skip}&take=50&${query}`, {
          headers: { Authorization: `Bearer ${tokens.bearer}` },
        });
        if ((await res.json()).length !== 50) throw new Error(`members ${query} skip=${skip}: not a full page`);
        times.push(performance.now() - t);
      }
      console.log(`members ${query || "(as added)"}, ${label} page`.padEnd(48), ms(median(times)));
    }
  }
} catch (err) {
  failed = true;
  console.error(err);
} finally {
  await browser?.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
if (failed) process.exit(1);
