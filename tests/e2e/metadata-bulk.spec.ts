import { readFileSync } from "node:fs";
import { Seeder, unique } from "./browse-seed";
import { ADMIN, expect, gotoSignedIn, test } from "./fixtures";

/** Metadata for several assets at once from a group's contents (decision 039): tags added and removed, a field set. */

test.use({ signedInAs: ADMIN });

type Info = { asset: { tags: { tag_name: string }[] } };
type Value = { def_id: string; field_data: unknown; pts: unknown };

test("three selected assets get tags and a field in one go", async ({ page }) => {
  const seed = await Seeder.admin();
  const tagName = unique("сезон");
  await seed.call("/api/tags/create", { json: { tag_name: tagName } });
  const field = unique("Рубрика");
  const defId = (
    await seed.call<{ field_def_id: string }>("/api/fields/templates", { json: { field_def_name: field, field_type: "text" } })
  ).field_def_id;
  const groupId = await seed.group(unique("Пакет"));
  const ids = await seed.emptyAssets(groupId, 4, (i) => `кадр-${i}.txt`);
  await gotoSignedIn(page, `/mam/${groupId}`);

  const list = page.getByRole("list", { name: "Содержимое группы" });
  for (const i of [0, 1, 2]) await list.getByRole("checkbox", { name: `Выбрать кадр-${i}.txt` }).check();
  await expect(page.getByText("Выбрано: 3")).toBeVisible();

  await page.getByRole("button", { name: "Добавить теги" }).click();
  const tags = page.getByRole("dialog", { name: "Добавить теги" });
  await tags.getByRole("textbox", { name: "Теги" }).fill(tagName.slice(0, -1));
  await page.getByRole("option", { name: tagName }).click();
  // The suggestions close when the dialog's title is clicked (they lie over its buttons).
  await tags.getByRole("heading", { name: "Добавить теги" }).click();
  await tags.getByRole("button", { name: "Применить" }).click();
  await expect(page.getByText("Теги добавлены: 3 файлам")).toBeVisible();
  const tagged = async () =>
    Promise.all(ids.map(async (id) => (await seed.call<Info>(`/api/asset/info/${id}`)).asset.tags.some((t) => t.tag_name === tagName)));
  expect(await tagged()).toEqual([true, true, true, false]);

  await list.getByRole("checkbox", { name: "Выбрать кадр-0.txt" }).check();
  await list.getByRole("checkbox", { name: "Выбрать кадр-1.txt" }).check();
  await list.getByRole("checkbox", { name: "Выбрать кадр-2.txt" }).check();
  await page.getByRole("button", { name: "Задать поле" }).click();
  const set = page.getByRole("dialog", { name: "Задать поле" });
  await set.getByRole("textbox", { name: "Поле" }).click();
  await page.getByRole("option", { name: field }).click();
  await set.getByRole("textbox", { name: field }).fill("Репортаж");
  await set.getByRole("button", { name: "Применить" }).click();
  await expect(page.getByText("Поле задано: 3 файлам")).toBeVisible();
  const values = await Promise.all(
    ids.map(async (id) => (await seed.call<Value[]>(`/api/fields/for-entity/${id}?entity_type=asset`)).filter((v) => v.def_id === defId)),
  );
  expect(values.map((v) => v.map((x) => x.field_data))).toEqual([["Репортаж"], ["Репортаж"], ["Репортаж"], []]);

  await page.getByRole("button", { name: "Убрать теги" }).click();
  const untag = page.getByRole("dialog", { name: "Убрать теги" });
  await untag.getByRole("textbox", { name: "Теги" }).fill(tagName.slice(0, -1));
  await page.getByRole("option", { name: tagName }).click();
  await untag.getByRole("heading", { name: "Убрать теги" }).click();
  await untag.getByRole("button", { name: "Применить" }).click();
  await expect(page.getByText("Теги убраны: 3 файлов")).toBeVisible();
  expect(await tagged()).toEqual([false, false, false, false]);
});

test("CSV round trip: export, edit a value, import shows the change, apply writes it", async ({ page }) => {
  const seed = await Seeder.admin();
  const field = unique("Автор");
  const defId = (
    await seed.call<{ field_def_id: string }>("/api/fields/templates", { json: { field_def_name: field, field_type: "text" } })
  ).field_def_id;
  const groupId = await seed.group(unique("Таблица"));
  const [asset] = await seed.emptyAssets(groupId, 1, () => "снимок.txt");
  await seed.call("/api/fields/create", { json: { entity_id: asset, entity_type: "asset", def_id: defId, field_data: "Иванов" } });
  await gotoSignedIn(page, `/mam/${groupId}`);

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Экспорт CSV" }).click()]);
  const exported = readFileSync(await download.path(), "utf8");
  expect(exported).toContain("Иванов");
  const edited = exported.replace("Иванов", "Петров");

  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Импорт CSV" }).click()]);
  await chooser.setFiles({ name: "поля.csv", mimeType: "text/csv", buffer: Buffer.from(edited) });
  const preview = page.getByRole("dialog", { name: "Импорт значений полей" });
  await expect(preview.getByText(`${field}: Иванов → Петров`)).toBeVisible();
  await preview.getByRole("button", { name: "Применить" }).click();
  await expect(page.getByText("Записано значений: 1")).toBeVisible();
  const values = await seed.call<Value[]>(`/api/fields/for-entity/${asset}?entity_type=asset`);
  expect(values.map((v) => v.field_data)).toEqual(["Петров"]);
});
