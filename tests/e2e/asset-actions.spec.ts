import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { ffmpeg, makeClip } from "../media/media";
import { Seeder, unique } from "./browse-seed";
import { ADMIN, expect, openSignedIn, test } from "./fixtures";

/**
 * The actions on an asset in Chromium against the real server (decision 055): «Новая версия» through the file
 * chooser and by a drop onto the viewer, the version switcher, «Переименовать» and F2, the class, «Добавить вариант»,
 * «Копировать в…» and «Запустить задачу» (on one asset and on a selection), «Создать без файла».
 */

// Each test uploads, reloads and waits on the transcoder's queue on a shared machine: more room than the default 30 s.
test.describe.configure({ timeout: 120_000 });

const dir = mkdtempSync(path.join(tmpdir(), "mam-asset-actions-"));
const png = (name: string, size: string) => {
  const file = path.join(dir, name);
  execFileSync(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", `testsrc=size=${size}`, "-frames:v", "1", file]);
  return file;
};
const small = png("первый.png", "320x240");
const large = png("второй.png", "640x480");
const clip = makeClip(path.join(dir, "второй-ролик.mp4"), 4, 320, 240);

const viewerImage = (page: Page) => page.getByTestId("viewer").locator("img").first();
const imageWidth = (page: Page) => viewerImage(page).evaluate((el: HTMLImageElement) => el.naturalWidth);

async function choose(page: Page, button: string, file: string) {
  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: button, exact: true }).click()]);
  await chooser.setFiles(file);
}

test("a file chosen with «Новая версия» becomes version 2 and plays; version 1 stays selectable; the info lists both with who and when", async ({
  page,
}) => {
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique("Версии"));
  const assetId = await seed.uploadInto(groupId, small, "image/png");
  await openSignedIn(page, ADMIN, `/mam/${groupId}/asset/${assetId}`);
  await expect(page.getByRole("button", { name: "Версия 1 из 1" })).toBeVisible();
  await expect.poll(() => imageWidth(page), { timeout: 30_000 }).toBe(320);

  await choose(page, "Новая версия", clip);
  // Through the same upload queue and panel as any upload; the viewer reloads when it completes.
  await expect(page.getByTestId("upload-item").filter({ hasText: "второй-ролик.mp4" })).toHaveAttribute("data-status", "completed", {
    timeout: 60_000,
  });
  await expect(page.getByRole("button", { name: "Версия 2 из 2" })).toBeVisible({ timeout: 30_000 });
  const video = page.locator("video");
  await expect(video).toBeVisible();
  await video.evaluate(async (el: HTMLVideoElement) => {
    el.muted = true;
    await el.play();
  });
  await expect.poll(() => video.evaluate((el: HTMLVideoElement) => el.currentTime), { timeout: 15_000 }).toBeGreaterThan(0.3);
  const versions = await seed.call<{ version: number; variant_type: string }[]>(`/api/asset/versions/${assetId}`);
  expect(versions.map((v) => [v.version, v.variant_type])).toEqual([
    [2, "initial"],
    [1, "initial"],
  ]);

  await page.getByRole("button", { name: "Версия 2 из 2" }).click();
  await page.getByRole("menuitem", { name: "Версия 1 из 2" }).click();
  await expect(page).toHaveURL(/\?v=1$/);
  await expect(page.getByRole("button", { name: "Версия 1 из 2" })).toBeVisible();
  await expect(page.locator("video")).toHaveCount(0);
  await expect.poll(() => imageWidth(page), { timeout: 30_000 }).toBe(320);

  await page.getByRole("link", { name: "Информация о файле" }).click();
  const table = page.getByRole("table", { name: "Версии" });
  const me = (await seed.call<{ name: string }>("/api/auth/whoami")).name;
  // A version's number, when and who head the row of its first variant (the transcoder may add more variants).
  const versionRow = (n: string) => table.getByRole("row").filter({ has: page.getByRole("cell", { name: n, exact: true }) });
  await expect(versionRow("2")).toContainText(me);
  await expect(versionRow("1")).toContainText(me);
});

test("a file dropped onto the open viewer becomes the next version", async ({ page }) => {
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique("Перетаскивание"));
  const assetId = await seed.uploadInto(groupId, small, "image/png");
  await openSignedIn(page, ADMIN, `/mam/${groupId}/asset/${assetId}`);
  await expect.poll(() => imageWidth(page), { timeout: 30_000 }).toBe(320);

  await page.getByTestId("viewer").evaluate((zone, base64) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], "второй.png", { type: "image/png" }));
    zone.dispatchEvent(new DragEvent("dragover", { dataTransfer: transfer, bubbles: true, cancelable: true }));
    zone.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, readFileSync(large).toString("base64"));
  await expect(page.getByRole("button", { name: "Версия 2 из 2" })).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => imageWidth(page), { timeout: 30_000 }).toBe(640);
});

test("«Переименовать» and F2 edit the name in place (Enter saves, Esc cancels); the class is picked from the list", async ({ page }) => {
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique("Имена"));
  const assetId = await seed.uploadInto(groupId, small, "image/png");
  const className = unique("Класс");
  const cls = await seed.call<{ id: string }>("/api/asset/class", { json: { name: className } });
  await openSignedIn(page, ADMIN, `/mam/${groupId}/asset/${assetId}`);
  const title = page.getByTestId("asset-title");
  await expect(title).toHaveText("первый.png");

  await page.keyboard.press("F2");
  const field = page.getByRole("textbox", { name: "Название файла" });
  await expect(field).toBeFocused();
  await field.fill("не сохранится.png");
  await field.press("Escape");
  await expect(title).toHaveText("первый.png");

  await page.getByRole("button", { name: "Переименовать" }).click();
  await field.fill("Интервью с очень длинным названием, которое раньше обрезалось в заголовке просмотра.png");
  await field.press("Enter");
  await expect(title).toHaveText("Интервью с очень длинным названием, которое раньше обрезалось в заголовке просмотра.png", {
    timeout: 30_000,
  });
  expect((await seed.call(`/api/asset/${assetId}`)).name).toBe(
    "Интервью с очень длинным названием, которое раньше обрезалось в заголовке просмотра.png",
  );
  // The whole name is on screen: it wraps instead of ending in «…».
  expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth && getComputedStyle(el).textOverflow !== "ellipsis")).toBe(true);

  await page.getByRole("link", { name: "Информация о файле" }).click();
  await page.getByRole("textbox", { name: "Класс" }).click();
  await page.getByRole("option", { name: className }).click();
  await expect.poll(async () => (await seed.call(`/api/asset/${assetId}`)).class, { timeout: 30_000 }).toBe(cls.id);
});

test("«Добавить вариант» uploads a named untyped variant of the version", async ({ page }) => {
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique("Варианты"));
  const assetId = await seed.uploadInto(groupId, small, "image/png");
  await openSignedIn(page, ADMIN, `/mam/${groupId}/asset/${assetId}`);

  await page.getByRole("button", { name: "Добавить вариант" }).click();
  const dialog = page.getByRole("dialog", { name: "Добавить вариант" });
  await dialog.getByRole("textbox", { name: "Название варианта" }).fill("Крупный кадр");
  await choose(page, "Выбрать файл", large);
  await expect(dialog.getByTestId("variant-file")).toHaveText("второй.png");
  await dialog.getByRole("button", { name: "Загрузить" }).click();

  await expect
    .poll(
      async () =>
        (await seed.call<{ name: string; variant_type: string; file_name: string }[]>(`/api/asset/variants/${assetId}/1`)).map((v) => [
          v.name,
          v.variant_type,
          v.file_name,
        ]),
      { timeout: 30_000 },
    )
    .toContainEqual(["Крупный кадр", "untyped", "второй.png"]);
  // Still one version: the variant joined the version on screen.
  await expect(page.getByRole("button", { name: "Версия 1 из 1" })).toBeVisible();
});

test("«Копировать в…» copies the asset into a group picked in the tree, and the selected files too", async ({ page }) => {
  const seed = await Seeder.admin();
  const from = unique("Исходная");
  const fromId = await seed.group(from);
  const to = unique("Копии");
  const toId = await seed.group(to);
  const assetId = await seed.uploadInto(fromId, small, "image/png");
  await seed.emptyAssets(fromId, 2, (i) => `пустой-${i}.txt`);
  await openSignedIn(page, ADMIN, `/mam/${fromId}/asset/${assetId}`);

  await page.getByRole("button", { name: "Ещё" }).click();
  await page.getByRole("menuitem", { name: "Копировать в…" }).click();
  const dialog = page.getByRole("dialog", { name: "Копировать в…" });
  await dialog.getByRole("textbox", { name: "Группа, куда скопировать" }).fill(to);
  await page.getByRole("option", { name: to }).click();
  await dialog.getByRole("button", { name: "Копировать" }).click();
  await expect(dialog).toBeHidden();
  const names = async () =>
    (await seed.call<{ el_info: { name: string } }[]>(`/api/group/members/${toId}?skip=0&take=50`)).map((m) => m.el_info.name).sort();
  await expect.poll(names, { timeout: 30_000 }).toEqual(["первый.png"]);

  await page.getByRole("link", { name: /К группе/ }).click();
  const list = page.getByRole("list", { name: "Содержимое группы" });
  await list.getByRole("checkbox", { name: "Выбрать пустой-0.txt" }).check();
  await list.getByRole("checkbox", { name: "Выбрать пустой-1.txt" }).check();
  await page.getByRole("button", { name: "Копировать в…" }).click();
  const again = page.getByRole("dialog", { name: "Копировать в…" });
  await again.getByRole("textbox", { name: "Группа, куда скопировать" }).fill(to);
  await page.getByRole("option", { name: to }).click();
  await again.getByRole("button", { name: "Копировать" }).click();
  await expect.poll(names, { timeout: 30_000 }).toEqual(["первый.png", "пустой-0.txt", "пустой-1.txt"]);
});

test("«Запустить задачу» lists the templates for the asset and starts one, on one asset and on a selection", async ({ page }) => {
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique("Задачи"));
  const assetId = await seed.uploadInto(groupId, small, "image/png");
  const otherId = await seed.uploadInto(groupId, large, "image/png");
  const tasksOf = async (id: string) =>
    (await seed.call<{ template: string }[]>(`/api/tasklist/current?entity=${id}&take=50`)).filter(
      (t) => t.template === "Водяной знак (текст)",
    ).length;
  const before = await tasksOf(assetId);
  await openSignedIn(page, ADMIN, `/mam/${groupId}/asset/${assetId}`);

  await page.getByRole("button", { name: "Ещё" }).click();
  await page.getByRole("menuitem", { name: "Запустить задачу" }).click();
  const dialog = page.getByRole("dialog", { name: "Запустить задачу" });
  await dialog.getByRole("radio", { name: "Водяной знак (текст)" }).check();
  await dialog.getByRole("button", { name: "Запустить" }).click();
  await expect(page.getByText("Запущена 1 задача")).toBeVisible();
  await expect.poll(() => tasksOf(assetId), { timeout: 30_000 }).toBe(before + 1);

  const otherBefore = await tasksOf(otherId);
  await page.goto(`/mam/${groupId}`);
  const list = page.getByRole("list", { name: "Содержимое группы" });
  await list.getByRole("checkbox", { name: "Выбрать первый.png" }).check();
  await list.getByRole("checkbox", { name: "Выбрать второй.png" }).check();
  await page.getByRole("button", { name: "Запустить задачу" }).click();
  const many = page.getByRole("dialog", { name: "Запустить задачу" });
  await expect(many.getByText("Для 2 файлов")).toBeVisible();
  await many.getByRole("radio", { name: "Водяной знак (текст)" }).check();
  await many.getByRole("button", { name: "Запустить" }).click();
  await expect(page.getByText("Запущено 2 задачи")).toBeVisible();
  await expect.poll(() => tasksOf(otherId), { timeout: 30_000 }).toBe(otherBefore + 1);
  await expect.poll(() => tasksOf(assetId), { timeout: 30_000 }).toBe(before + 2);
});

test("«Создать без файла» makes an asset with a name and class and no file; a file uploaded into it becomes its first version", async ({
  page,
}) => {
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique("Пустые"));
  const className = unique("Карточка");
  const cls = await seed.call<{ id: string }>("/api/asset/class", { json: { name: className } });
  await openSignedIn(page, ADMIN, `/mam/${groupId}`);

  await page.getByRole("button", { name: "Создать без файла" }).click();
  const dialog = page.getByRole("dialog", { name: "Создать без файла" });
  await dialog.getByRole("textbox", { name: "Название" }).fill("Сюжет без съёмки");
  await dialog.getByRole("textbox", { name: "Класс" }).click();
  await page.getByRole("option", { name: className }).click();
  await dialog.getByRole("button", { name: "Создать" }).click();
  await expect(page).toHaveURL(new RegExp(`/mam/${groupId}/asset/[0-9a-f-]{36}$`));
  const assetId = page.url().split("/").pop()!;
  await expect(page.getByTestId("asset-title")).toHaveText("Сюжет без съёмки");
  const empty = await seed.call(`/api/asset/${assetId}`);
  expect(empty).toMatchObject({ name: "Сюжет без съёмки", class: cls.id, asset_latest_version: null });

  await choose(page, "Новая версия", small);
  await expect(page.getByRole("button", { name: "Версия 1 из 1" })).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => imageWidth(page), { timeout: 30_000 }).toBe(320);
  expect(await seed.call(`/api/asset/${assetId}`)).toMatchObject({
    name: "Сюжет без съёмки",
    mimetype: "image/png",
    asset_latest_version: 1,
  });
});
