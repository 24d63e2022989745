import type { APIRequestContext } from "@playwright/test";
import { VIRTUAL_ROOT_ID as VIRTUAL_ROOT } from "../../shared/lib/constants";
import { ADMIN, apiBearer, expect, gotoSignedIn, test } from "./fixtures";

/**
 * /admin/storages in Chromium: the built-in storage with its usage bar, an S3-compatible storage added through the
 * form (the server's Russian rules first), its keys write-only when edited; a group's default storage set on the
 * admin group page and kept across a reload.
 */

const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function adminCall(request: APIRequestContext, method: "GET" | "POST", path: string, data?: unknown) {
  const bearer = await apiBearer(request, ADMIN.login, ADMIN.password);
  const response = await request.fetch(path, { method, data, headers: { Authorization: `Bearer ${bearer}` } });
  expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(true);
  return response.json();
}

test.use({ signedInAs: ADMIN });

test("an admin adds an S3 storage; its keys are write-only; a group gets it as its default", async ({ page, request }) => {
  const name = `Архив ${tag()}`;
  await gotoSignedIn(page, "/admin");
  await page.getByRole("link", { name: "Хранилища" }).click();
  await expect(page).toHaveURL(/\/admin\/storages$/);
  const table = page.getByRole("table", { name: "Хранилища" });
  await expect(table.getByRole("row", { name: /По умолчанию/ })).toBeVisible();
  // An empty storage's bar has no width: it is there, with its figures under it.
  await expect(table.getByRole("progressbar", { name: /^Занято: / }).first()).toBeAttached();
  await expect(table.getByText(/объект/).first()).toBeVisible();

  await page.getByRole("button", { name: "Новое хранилище" }).click();
  const dialog = page.getByRole("dialog", { name: "Новое хранилище" });
  await dialog.getByRole("textbox", { name: "Название" }).fill(name);
  await dialog.getByRole("textbox", { name: "Адрес (endpoint)" }).fill("https://s3.example.test");
  await dialog.getByRole("button", { name: "Сохранить" }).click();
  // The server's own schema: an S3 storage needs a bucket and both keys.
  await expect(dialog.getByText("обязательное поле для S3").first()).toBeVisible();

  await dialog.getByRole("textbox", { name: "Бакет" }).fill("media-archive");
  await dialog.getByRole("textbox", { name: "Ключ доступа (access key)" }).fill("AKIAEXAMPLE");
  await dialog.getByLabel("Секретный ключ (secret key)").fill("very-secret-value");
  await dialog.getByRole("button", { name: "Сохранить" }).click();
  await expect(page.getByText("Хранилище добавлено")).toBeVisible();
  const row = table.getByRole("row", { name: new RegExp(name) });
  await expect(row).toContainText("https://s3.example.test · media-archive");
  await expect(row).toContainText("Заданы");

  // Editing shows that keys are set, never what they are.
  await row.getByRole("button", { name: "Изменить" }).click();
  const edit = page.getByRole("dialog", { name: "Изменить хранилище" });
  await expect(edit.getByRole("textbox", { name: "Ключ доступа (access key)" })).toHaveValue("");
  await expect(edit.getByText("Задан. Оставьте пустым, чтобы не менять").first()).toBeVisible();
  await expect(page.locator("body")).not.toContainText("very-secret-value");
  await edit.getByRole("textbox", { name: "Регион" }).fill("ru-central1");
  await edit.getByRole("button", { name: "Сохранить" }).click();
  await expect(page.getByText("Сохранено")).toBeVisible();
  const listed = (await adminCall(request, "GET", "/api/storage/list")) as {
    storage_id: string;
    storage_name: string;
    has_credentials: boolean;
    storage_setup: { region?: string };
  }[];
  const added = listed.find((s) => s.storage_name === name);
  expect(added).toMatchObject({ has_credentials: true, storage_setup: { region: "ru-central1" } });
  expect(JSON.stringify(listed)).not.toContain("very-secret-value");

  const group = (await adminCall(request, "POST", "/api/group/create", { group_name: `Группа ${tag()}`, parent: VIRTUAL_ROOT })).group_id;
  await gotoSignedIn(page, `/admin/group/${group}`);
  const select = page.getByRole("textbox", { name: "Хранилище по умолчанию для новых файлов группы" });
  await select.click();
  await page.getByRole("option", { name, exact: true }).click();
  await expect(page.getByText("Сохранено")).toBeVisible();
  await page.reload();
  await expect(select).toHaveValue(name);
  const storage = await adminCall(request, "GET", `/api/group/storage/${group}`);
  expect(storage).toMatchObject({ storage_id: added?.storage_id, inherited_from: null });
});
