import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { VIRTUAL_ROOT_ID as ROOT } from "../../shared/lib/constants";
import { Seeder, unique } from "./browse-seed";
import { ADMIN, apiBearer, expect, gotoSignedIn, test } from "./fixtures";

/**
 * The admin's journal (/admin/events, docs/decisions/043-events-list.md): filtered to one asset, its events open it;
 * and an asset's own history on its info screen.
 */

const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function adminPost(request: APIRequestContext, path: string, data: unknown) {
  const bearer = await apiBearer(request, ADMIN.login, ADMIN.password);
  const res = await request.post(path, { data, headers: { Authorization: `Bearer ${bearer}` } });
  expect(res.ok(), `POST ${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return res.json();
}

test.use({ signedInAs: ADMIN });

test("the admin filters the journal to one asset and opens it", async ({ page, request }) => {
  const name = `Отчёт ${tag()}.pdf`;
  const group = (await adminPost(request, "/api/group/create", { group_name: `Журнал ${tag()}`, parent: ROOT })).group_id;
  const asset = (await adminPost(request, "/api/asset/create", { asset_name: name, asset_mime: "application/pdf", in_group: group }))
    .asset_id;

  await gotoSignedIn(page, "/admin");
  await page.getByRole("link", { name: "Журнал" }).click();
  await expect(page).toHaveURL(/\/admin\/events$/);
  const table = page.getByRole("table", { name: "Журнал" });
  // The newest page has loaded. Whether the asset's creation is still on it depends on the other tests running beside
  // this one (one seeds 120 files at once), so it is looked for under the filter below.
  await expect(table.getByRole("row").nth(1)).toBeVisible();

  await page.getByRole("textbox", { name: "Объект (id)" }).fill(asset);
  await expect(page).toHaveURL(new RegExp(`entity=${asset}`));
  const rows = table.getByRole("row");
  // The address changes before the filtered page has loaded: wait until every asset row is this asset's.
  await expect(rows.filter({ hasText: name })).not.toHaveCount(0);
  await expect(rows.filter({ hasText: "Файл создан" }).filter({ hasNotText: name })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("textbox", { name: "Объект (id)" })).toHaveValue(asset);

  await table.getByRole("link", { name }).first().click();
  await expect(page).toHaveURL(new RegExp(`/asset/${asset}$`));
});

test("an asset's history shows its upload and a field change", async ({ page }) => {
  const seed = await Seeder.admin();
  const group = await seed.group(unique("История"));
  const dir = mkdtempSync(path.join(tmpdir(), "mam-history-"));
  const file = path.join(dir, "заметка.txt");
  writeFileSync(file, "Текст заметки");
  const asset = await seed.uploadInto(group, file, "text/plain");
  const template = await seed.call<{ field_def_id: string }>("/api/fields/templates", {
    json: { field_def_name: unique("Описание"), field_type: "text", field_setup: {} },
  });
  await seed.call("/api/fields/create", {
    json: { entity_id: asset, entity_type: "asset", def_id: template.field_def_id, field_data: "Первая запись" },
  });

  await gotoSignedIn(page, `/asset/${asset}`);
  const history = page.getByRole("region", { name: "История" });
  await expect(history.getByRole("row").filter({ hasText: "Загрузка завершена" })).toHaveCount(1);
  await expect(history.getByRole("row").filter({ hasText: "Заполнено поле" })).toHaveCount(1);
  await expect(history.getByRole("row").filter({ hasText: "Файл создан" })).toHaveCount(1);
});

test("the history and the journal say events in words, name deleted objects and show JSON on demand", async ({ page }) => {
  // Two screens and a dozen seeding calls: more than the default budget on a busy machine.
  test.slow();
  const seed = await Seeder.admin();
  const groupName = unique("Слова");
  const group = await seed.group(groupName);
  const dir = mkdtempSync(path.join(tmpdir(), "mam-words-"));
  const file = path.join(dir, "справка.txt");
  writeFileSync(file, "x".repeat(2048));
  const asset = await seed.uploadInto(group, file, "text/plain");
  const fieldName = unique("Рубрика");
  const template = await seed.call<{ field_def_id: string }>("/api/fields/templates", {
    json: { field_def_name: fieldName, field_type: "text", field_setup: {} },
  });
  await seed.call("/api/fields/create", {
    json: { entity_id: asset, entity_type: "asset", def_id: template.field_def_id, field_data: "Раз" },
  });

  await gotoSignedIn(page, `/asset/${asset}`);
  const history = page.getByRole("region", { name: "История" });
  const uploaded = history.getByRole("row").filter({ hasText: "Загрузка завершена" });
  await expect(uploaded).toContainText("загружена версия 1, 2,00 КБ");
  await expect(history.getByRole("row").filter({ hasText: "Файл создан" }).getByRole("link", { name: groupName })).toBeVisible();
  await expect(history.getByRole("row").filter({ hasText: "Заполнено поле" })).toContainText(fieldName);
  // The raw event is drawn only when asked for.
  await expect(uploaded.getByText('"upload.complete"')).toHaveCount(0);
  await uploaded.getByRole("button", { name: "JSON" }).click();
  await expect(uploaded.getByText('"kind": "upload.complete"')).toBeVisible();

  // Deleted, the asset still reads by its name in the journal (not linked: it opens nothing).
  await seed.call("/api/asset/delete-list", { json: { ids: [asset] } });
  await gotoSignedIn(page, `/admin/events?entity=${asset}`);
  const table = page.getByRole("table", { name: "Журнал" });
  const deleted = table.getByRole("row").filter({ hasText: "Файл удалён" });
  await expect(deleted).toContainText("справка.txt");
  await expect(deleted.getByRole("link", { name: "справка.txt" })).toHaveCount(0);
  await expect(table.getByRole("row").filter({ hasText: "Загрузка завершена" })).toContainText("загружена версия 1");
});

test("the journal's CSV button downloads the filtered events of the period", async ({ page, request }) => {
  const name = `Смета ${tag()}.pdf`;
  const asset = (await adminPost(request, "/api/asset/create", { asset_name: name, asset_mime: "application/pdf" })).asset_id;
  await gotoSignedIn(page, "/admin/events?kind=asset");
  await expect(page.getByRole("table", { name: "Журнал" }).getByRole("link", { name }).first()).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^events-0-\d+\.csv$/);
  const text = readFileSync((await download.path())!, "utf8");
  expect(text.replace(/^\uFEFF/, "").split("\r\n")[0]).toBe("event_id,time,kind,user_id,user_name,entity_type,entity_id,data");
  const rows = text.split("\r\n").filter((l) => l.includes(asset));
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.every((l) => l.includes(",asset."))).toBe(true);
});
