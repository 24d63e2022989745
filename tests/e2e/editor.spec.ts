import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Seeder, unique } from "./browse-seed";
import { ADMIN, expect, openSignedIn, signedInPage, test } from "./fixtures";

/**
 * The document editor in Chromium (docs/decisions/046-wopi.md): a .txt opens from the viewer's "Редактировать"
 * in the built-in editor, which locks it over our WOPI host; an edit saved is a new version with the new bytes;
 * a second browser sees the file locked, with the holder's name; closing the editor releases the lock.
 */

const dir = mkdtempSync(path.join(tmpdir(), "mam-editor-"));
const file = path.join(dir, "заметки.txt");
writeFileSync(file, "первая строка");
const docx = path.join(dir, "Договор.docx");
writeFileSync(docx, "PK not really a document");

test("a text file is edited, saved as a new version, locked for a second editor and released on close", async ({ page, browser }) => {
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique("Правка"));
  const assetId = await seed.uploadInto(groupId, file, "text/plain");
  const me = await seed.call<{ name: string }>("/api/auth/whoami");
  await openSignedIn(page, ADMIN, `/mam/${groupId}/asset/${assetId}`);

  await page.getByRole("link", { name: "Редактировать" }).click();
  await expect(page).toHaveURL(new RegExp(`/editor/${assetId}\\?from=`));
  const editor = page.getByTestId("text-editor").locator(".cm-content");
  await expect(editor).toHaveText("первая строка");

  // A second browser (another session) finds the file locked and opens it read-only, naming the holder.
  const second = await signedInPage(browser, ADMIN, `/editor/${assetId}`);
  await expect(second.page.getByTestId("editor-readonly")).toContainText(`редактирует ${me.name}`);
  await expect(second.page.getByRole("button", { name: "Сохранить" })).toHaveCount(0);
  await second.context.close();

  await editor.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(" и вторая");
  await page.getByRole("button", { name: "Сохранить" }).click();
  await expect(page.getByText("Сохранено: новая версия файла")).toBeVisible();

  const versions = await seed.call<{ version: number }[]>(`/api/asset/versions/${assetId}`);
  expect(Math.max(...versions.map((v) => v.version))).toBe(2);
  const bytes = await seed.bytes(`/api/asset/content/download/${assetId}/latest/initial`);
  expect(new TextDecoder().decode(bytes)).toBe("первая строка и вторая");

  await page.getByRole("button", { name: "Закрыть редактор" }).click();
  await expect(page).toHaveURL(new RegExp(`/mam/${groupId}/asset/${assetId}$`));

  // Released: the next editor gets the lock and may save.
  const third = await signedInPage(browser, ADMIN, `/editor/${assetId}`);
  await expect(third.page.getByTestId("text-editor").locator(".cm-content")).toHaveText("первая строка и вторая");
  await expect(third.page.getByRole("button", { name: "Сохранить" })).toBeVisible();
  await expect(third.page.getByTestId("editor-readonly")).toHaveCount(0);
  await third.context.close();
});

test("an office document without an office server explains how to connect one and offers the download", async ({ page }) => {
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique("Правка"));
  const assetId = await seed.uploadInto(groupId, docx, "application/vnd.openxmlformats-officedocument.wordprocessingml.document");
  await openSignedIn(page, ADMIN, `/asset/${assetId}`);

  await page.getByRole("link", { name: "Редактировать" }).click();
  await expect(page.getByText("Офисный редактор не подключён")).toBeVisible();
  await expect(page.getByText("WOPI_CLIENT_URL")).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Скачать" }).click()]);
  expect(download.suggestedFilename()).toBe("Договор.docx");
  await page.getByRole("link", { name: /Назад/ }).click();
  await expect(page).toHaveURL(new RegExp(`/asset/${assetId}$`));
});
