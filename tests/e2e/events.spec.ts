import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { VIRTUAL_ROOT_ID as ROOT } from "../../functions/lib/constants";
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
  // The newest page shows the asset's creation without a reload.
  await expect(table.getByRole("link", { name }).first()).toBeVisible();

  await page.getByRole("textbox", { name: "Объект (id)" }).fill(asset);
  await expect(page).toHaveURL(new RegExp(`entity=${asset}`));
  const rows = table.getByRole("row");
  // The address changes before the filtered page has loaded: wait until every asset row is this asset's.
  await expect(rows.filter({ hasText: name })).not.toHaveCount(0);
  await expect(rows.filter({ hasText: "asset" }).filter({ hasNotText: name })).toHaveCount(0);
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
