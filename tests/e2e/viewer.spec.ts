import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { ffmpeg, makeClip } from "../media/media";
import { base, Seeder, unique } from "./browse-seed";
import { ADMIN, expect, gotoSignedIn, openSignedIn, test } from "./fixtures";

/**
 * The file viewer in Chromium: real files uploaded through /api/ul into a group, opened from the group's
 * list; the image zooms, the video plays and seeks, the download gives back the uploaded bytes.
 */

const dir = mkdtempSync(path.join(tmpdir(), "mam-viewer-"));
const image = path.join(dir, "картинка.png");
execFileSync(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240", "-frames:v", "1", image]);
const clip = makeClip(path.join(dir, "ролик.mp4"), 4, 320, 240);

/** A new user who may read the group (and so its files' proxies and previews) but not download the originals. */
async function readerOf(admin: Seeder, groupId: string) {
  const suffix = unique("").trim();
  const reader = { login: `r-${suffix}`, password: `Pw-${suffix}-long` };
  const { user_id } = await admin.call("/api/user", {
    json: { user_name: `Читатель ${suffix}`, user_login: reader.login, user_passwd: reader.password, enabled: true },
  });
  await admin.call("/api/user/acl", { json: { subj: user_id, obj: groupId, acl: ["read"] } });
  return reader;
}

test("an image opens in the viewer, zooms, and downloads as the same bytes", async ({ page }) => {
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique("Картинки"));
  const assetId = await seed.uploadInto(groupId, image, "image/png");
  await openSignedIn(page, ADMIN, `/mam/${groupId}`);

  await page.getByRole("list", { name: "Содержимое группы" }).getByRole("link", { name: "картинка.png" }).click();
  await expect(page).toHaveURL(new RegExp(`/mam/${groupId}/asset/${assetId}$`));
  const img = page.getByRole("img", { name: "картинка.png" });
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(320);
  await page.getByRole("button", { name: "Увеличить" }).click();
  await expect(page.getByTestId("zoom")).toHaveText("150%");

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Скачать", exact: true }).click()]);
  expect(download.suggestedFilename()).toBe("картинка.png");
  const saved = readFileSync(await download.path());
  expect(saved.equals(readFileSync(image))).toBe(true);
});

test("a video plays, and keeps playing after a seek", async ({ page }) => {
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique("Видео"));
  const assetId = await seed.uploadInto(groupId, clip, "video/mp4");
  await openSignedIn(page, ADMIN, `/mam/${groupId}/asset/${assetId}`);

  const video = page.locator("video");
  await expect(video).toBeVisible();
  await video.evaluate(async (el: HTMLVideoElement) => {
    el.muted = true;
    await el.play();
  });
  await expect.poll(() => video.evaluate((el: HTMLVideoElement) => el.currentTime), { timeout: 15_000 }).toBeGreaterThan(0.3);
  await video.evaluate((el: HTMLVideoElement) => {
    el.currentTime = 2.5;
  });
  await expect.poll(() => video.evaluate((el: HTMLVideoElement) => el.currentTime), { timeout: 15_000 }).toBeGreaterThan(2.8);
});

test("a play link that stops working (it lives minutes) is renewed and the video plays", async ({ page }) => {
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique("Продление"));
  const assetId = await seed.uploadInto(groupId, clip, "video/mp4");
  // The player's first link has expired: every request of it is answered as an expired link is (the player
  // may load it more than once) until the player has asked for a fresh one. A link renewed within the same second
  // is the same URL, and the player loads it again (MediaView), so from then on it passes like any fresh link.
  // Only the player's requests count: thumbnails of look-alikes (other tests upload the same clip) come from
  // /api/media too.
  const links: string[] = [];
  page.on("request", (r) => r.url().includes("/api/asset/content/play-variant/") && links.push(r.url()));
  let expired: string | null = null;
  await page.route("**/api/media/**", (route) => {
    const url = route.request().url();
    if (route.request().resourceType() === "media" && (expired ??= url) === url && links.length < 2)
      return route.fulfill({ status: 403, contentType: "application/json", body: '{"error":{"code":"forbidden","message":"expired"}}' });
    return route.continue();
  });
  await openSignedIn(page, ADMIN, `/mam/${groupId}/asset/${assetId}`);

  const video = page.locator("video");
  await expect.poll(() => links.length).toBe(2);
  // The second link is asked for before the player gets it: wait until the fresh source has loaded, since
  // play() on the source that failed rejects.
  await expect
    .poll(() => video.evaluate((el: HTMLVideoElement) => el.error === null && el.readyState >= HTMLMediaElement.HAVE_METADATA), {
      timeout: 15_000,
    })
    .toBe(true);
  await video.evaluate(async (el: HTMLVideoElement) => {
    el.muted = true;
    await el.play();
  });
  await expect.poll(() => video.evaluate((el: HTMLVideoElement) => el.currentTime), { timeout: 15_000 }).toBeGreaterThan(0.3);
});

test("a reader without the download right sees the preview, and is offered no download of the original", async ({ page }) => {
  const admin = await Seeder.admin();
  const groupId = await admin.group(unique("Только чтение"));
  const assetId = await admin.uploadInto(groupId, image, "image/png");
  const [variant] = await admin.call(`/api/asset/variants/${assetId}/1`);
  const preview = await fetch(`${base}/api/asset/upload-preview/${variant.variant_id}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${admin.bearer}`, "Content-Type": "image/png" },
    body: readFileSync(image),
  });
  expect(preview.status).toBe(200);
  const reader = await readerOf(admin, groupId);

  // Image bytes go with the bearer the service worker holds, and a browser's first page is not under its control
  // when it asks for them: they fail (401) and are asked for again once the worker is in control (use-signed-image).
  await openSignedIn(page, reader, `/mam/${groupId}`);
  const contents = page.getByRole("list", { name: "Содержимое группы" });
  const thumb = contents.locator(`img[src*="/api/asset/content/preview/${assetId}/"]`);
  await expect.poll(() => thumb.evaluate((el: HTMLImageElement) => el.naturalWidth), { timeout: 15_000 }).toBeGreaterThan(0);
  await contents.getByRole("link", { name: "картинка.png" }).click();
  const img = page.getByRole("img", { name: "картинка.png" });
  await expect(img).toBeVisible();
  expect(await img.getAttribute("src")).toContain(`/api/asset/content/preview/${assetId}/1/`);
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
  await expect(page.getByRole("button", { name: "Скачать", exact: true })).toHaveCount(0);
  await expect(page.getByRole("alert")).toHaveCount(0);
});

test("a reader without the download right who opens a video before its proxy gets the player once it is made, without a reload", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const admin = await Seeder.admin();
  const groupId = await admin.group(unique("Ждём прокси"));
  const reader = await readerOf(admin, groupId);
  await openSignedIn(page, reader, `/mam/${groupId}`);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

  // The file is opened as soon as it is in: the reader may not get the original, and the transcoder's proxy comes later.
  const assetId = await admin.uploadInto(groupId, clip, "video/mp4");
  const played = page.waitForRequest((r) => r.url().includes("/api/asset/content/play-variant/"), { timeout: 150_000 });
  await gotoSignedIn(page, `/mam/${groupId}/asset/${assetId}`);
  await expect(page.getByRole("heading", { name: "ролик.mp4" })).toBeVisible();
  if ((await page.locator("video").count()) === 0)
    test.info().annotations.push({ type: "viewer", description: "opened before the proxy; the player came without a reload" });
  // A mark on this page's window: still there at the end, so the player came without a reload.
  await page.evaluate(() => Object.assign(window, { mamSamePage: true }));
  await expect(page.locator("video")).toBeVisible({ timeout: 150_000 });
  const variants = (await admin.call(`/api/asset/variants/${assetId}/1`)) as { variant_id: string; variant_type: string }[];
  const proxies = variants.filter((v) => v.variant_type.startsWith("proxy_")).map((v) => v.variant_id);
  expect(proxies).toContain(new URL((await played).url()).pathname.split("/").pop());
  expect(await page.evaluate(() => "mamSamePage" in window)).toBe(true);
});

test("previous and next follow the group's order", async ({ page }) => {
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique("Порядок"));
  const ids = await seed.emptyAssets(groupId, 3, (i) => `документ-${i}.txt`);
  await openSignedIn(page, ADMIN, `/mam/${groupId}`);
  const list = page.getByRole("list", { name: "Содержимое группы" });
  await expect(list.locator("[data-item]")).toHaveCount(3);
  const shown = await list.locator("[data-item]").evaluateAll((els) => els.map((e) => e.getAttribute("data-item")));
  expect(new Set(shown)).toEqual(new Set(ids));

  // The address changes before the new asset's screen is drawn, so each step waits for its title as well:
  // a click in between would still act for the asset before.
  const at = async (k: number) => {
    await expect(page).toHaveURL(new RegExp(`/asset/${shown[k]}$`));
    const name = `документ-${ids.indexOf(shown[k] as string)}.txt`;
    await expect(page.getByRole("heading", { name, exact: true })).toBeVisible();
  };
  await list.locator(`[data-item="${shown[0]}"]`).getByRole("link").click();
  await at(0);
  await expect(page.getByRole("button", { name: "Предыдущий" })).toBeDisabled();
  await page.getByRole("button", { name: "Следующий" }).click();
  await at(1);
  await page.getByRole("button", { name: "Следующий" }).click();
  await at(2);
  await expect(page.getByRole("button", { name: "Следующий" })).toBeDisabled();
  await page.getByRole("button", { name: "Предыдущий" }).click();
  await at(1);
});

test("the asset info screen shows the asset, its versions and variants, its groups and who has access", async ({ page }) => {
  const seed = await Seeder.admin();
  const groupName = unique("Инфо");
  const groupId = await seed.group(groupName);
  const assetId = await seed.uploadInto(groupId, image, "image/png");
  await openSignedIn(page, ADMIN, `/mam/${groupId}/asset/${assetId}`);
  await page.getByRole("link", { name: "Информация о файле" }).click();
  await expect(page).toHaveURL(new RegExp(`/asset/${assetId}$`));

  await expect(page.getByRole("heading", { name: "картинка.png", level: 2 })).toBeVisible();
  const fields = page.getByRole("table", { name: "Информация о файле" });
  await expect(fields.getByRole("row", { name: /MIME-тип/ })).toContainText("image/png");
  const versions = page.getByRole("table", { name: "Версии" });
  await expect(versions.getByRole("row").filter({ hasText: "initial" })).toContainText(
    `${(readFileSync(image).length / 1024).toFixed(2).replace(".", ",")} КБ`,
  );
  // The groups section's link (the history below names the group too, as a link).
  await expect(page.getByRole("link", { name: groupName }).first()).toHaveAttribute("href", `/mam/${groupId}`);
  await expect(page.getByText(/Ваши права: .*read/)).toBeVisible();
  // The share-links panel is still on this screen.
  await expect(page.getByRole("heading", { name: "Поделиться" })).toBeVisible();

  // An asset in no group opens too, and nothing on the screen fails.
  const { assetId: lone } = await seed.upload(image, "image/png");
  await page.goto(`/asset/${lone}`);
  await expect(page.getByRole("heading", { name: "картинка.png", level: 2 })).toBeVisible();
  await expect(page.getByText("Ни в одной доступной группе")).toBeVisible();
  await expect(page.getByRole("alert")).toHaveCount(0);
});

test("the asset info screen names the owner and creator to those who may know them, and shows the id to others", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const admin = await Seeder.admin();
  const groupId = await admin.group(unique("Авторы"));
  const person = async (name: string, acl: string[]) => {
    const suffix = unique("").trim();
    const login = { login: `u-${suffix}`, password: `Pw-${suffix}-long`, name: `${name} ${suffix}` };
    const { user_id } = await admin.call("/api/user", {
      json: { user_name: login.name, user_login: login.login, user_passwd: login.password, enabled: true },
    });
    const { rule_id } = await admin.call("/api/user/acl", { json: { subj: user_id, obj: groupId, acl } });
    return { ...login, id: user_id as string, ruleId: rule_id as string };
  };
  const author = await person("Автор", ["read", "create", "update"]);
  const reader = await person("Читатель", ["read"]);
  const asAuthor = new Seeder(base);
  await asAuthor.login(author.login, author.password);
  const assetId = await asAuthor.uploadInto(groupId, image, "image/png");

  const rows = (p: Page) => {
    const fields = p.getByRole("table", { name: "Информация о файле" });
    return { owner: fields.getByRole("row", { name: /Владелец/ }), creator: fields.getByRole("row", { name: /Создатель/ }) };
  };
  async function infoAs(p: Page, who: { login: string; password: string }) {
    await openSignedIn(p, who, `/asset/${assetId}`);
    await expect(p.getByRole("heading", { name: "картинка.png", level: 2 })).toBeVisible();
    return rows(p);
  }

  const as = async (who: { login: string; password: string }) => {
    const context = await browser.newContext({ baseURL: base, locale: "ru-RU" });
    const p = await context.newPage();
    return { p, view: await infoAs(p, who), close: () => context.close() };
  };

  // The author knows their own name.
  const authorView = await infoAs(page, author);
  await expect(authorView.owner).toContainText(author.name);
  await expect(authorView.creator).toContainText(author.name);

  // The author's rule goes, so the access list no longer names them: the admin's name comes from reading the user.
  await admin.call(`/api/user/acl/${author.ruleId}`, { method: "DELETE" });
  const { view: adminView, close: closeAdmin } = await as(ADMIN);
  await expect(adminView.owner).toContainText(author.name);
  await expect(adminView.creator).toContainText(author.name);
  await expect(adminView.owner).not.toContainText(author.id);
  await closeAdmin();

  // A reader who may not read users sees the id, with the reason on hover, and no error.
  const { p: readerPage, view: readerView, close: closeReader } = await as(reader);
  await expect(readerView.owner).toContainText(author.id);
  await expect(readerView.owner).not.toContainText(author.name);
  await expect(readerView.creator).toContainText(author.id);
  await readerView.owner.getByText(author.id).hover();
  await expect(readerPage.getByText("Имена пользователей видны администраторам")).toBeVisible();
  await expect(readerPage.getByRole("alert")).toHaveCount(0);
  await closeReader();
});
