import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { ADMIN, apiBearer, signInByApi } from "./fixtures";

/**
 * /admin/metadata in Chromium: an admin creates a field template (a Russian validation error first) and sets
 * it up in its editor with the live preview, builds an asset class from templates, creates, finds and renames
 * tags, grows a taxonomy path and edits it in place, and fills a list. The open tab survives a reload.
 */

const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function adminPost(request: APIRequestContext, path: string, data: unknown) {
  const bearer = await apiBearer(request, ADMIN.login, ADMIN.password);
  const response = await request.post(path, { data, headers: { Authorization: `Bearer ${bearer}` } });
  expect(response.ok(), `POST ${path}: ${response.status()} ${await response.text()}`).toBe(true);
  return response.json();
}

async function openTab(page: Page, tab: string, name: string) {
  await page.getByRole("tab", { name }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]tab=${tab}`));
}

/** Picks an option of a Mantine Select by its visible text. */
async function pick(page: Page, select: Locator, option: string) {
  await select.click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

test.beforeEach(async ({ context }) => {
  await signInByApi(context, ADMIN.login, ADMIN.password);
});

test("a field template: a Russian error for an empty name, then created, set up in its editor with a live preview", async ({ page }) => {
  const name = `Описание ${tag()}`;
  await page.goto("/admin/metadata");
  const create = page.getByRole("region", { name: "Новый шаблон поля" });
  await create.getByRole("button", { name: "Создать" }).click();
  await expect(create.getByText("не может быть пустым")).toBeVisible();

  await create.getByRole("textbox", { name: "Название" }).fill(name);
  await create.getByRole("textbox", { name: "Приоритет" }).fill("5");
  await create.getByRole("textbox", { name: "Внешняя система" }).fill("crm");
  await create.getByRole("button", { name: "Создать" }).click();
  const row = page.getByRole("row", { name: new RegExp(name) });
  await expect(row).toContainText("Текст");
  await expect(row).toContainText("crm");

  await row.getByRole("link", { name }).click();
  await expect(page).toHaveURL(/\/admin\/metadata\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name })).toBeVisible();
  const preview = page.getByRole("region", { name: "Как будет выглядеть поле" });
  await page.getByRole("checkbox", { name: "Многострочный текст" }).check();
  // The preview follows the setup before it is saved: a multi-line text is a textarea.
  await preview.locator("textarea").fill("Первая строка");
  await expect(preview.getByTestId("preview-value")).toHaveText('"Первая строка"');

  await page.getByRole("button", { name: "Сохранить" }).click();
  await expect(page.getByText("Сохранено")).toBeVisible();
  await page.reload();
  await expect(page.getByRole("checkbox", { name: "Многострочный текст" })).toBeChecked();
});

test("an asset class gets ordered field templates; the tab and the fields survive a reload", async ({ page, request }) => {
  const t = tag();
  const first = `Автор ${t}`;
  const second = `Год ${t}`;
  for (const [field_def_name, field_type] of [
    [first, "text"],
    [second, "number"],
  ])
    await adminPost(request, "/api/fields/templates", { field_def_name, field_type, field_setup: {}, field_priority: 0 });
  const className = `Фильм ${t}`;

  await page.goto("/admin/metadata");
  await openTab(page, "classes", "Классы файлов");
  await page.getByRole("textbox", { name: "Название класса" }).fill(className);
  await page.getByRole("button", { name: "Создать" }).click();
  const card = page.getByRole("region", { name: className });
  await expect(card).toBeVisible();
  await pick(page, card.getByRole("textbox", { name: `Добавить поле: ${className}` }), first);
  await expect(card.getByTestId("ordered-template")).toHaveCount(1);
  await pick(page, card.getByRole("textbox", { name: `Добавить поле: ${className}` }), second);
  await expect(card.getByTestId("ordered-template")).toHaveCount(2);
  await card.getByRole("button", { name: `Выше: ${second}` }).click();
  await expect(card.getByTestId("ordered-template").first()).toContainText(second);

  await page.reload();
  await expect(page).toHaveURL(/tab=classes/);
  await expect(page.getByRole("tab", { name: "Классы файлов" })).toHaveAttribute("aria-selected", "true");
  const fields = page.getByRole("region", { name: className }).getByTestId("ordered-template");
  await expect(fields).toHaveCount(2);
  await expect(fields.first()).toContainText(second);
});

test("tags: a Russian error for an empty name, create, find, rename and delete", async ({ page }) => {
  const name = `Пейзаж ${tag()}`;
  await page.goto("/admin/metadata");
  await openTab(page, "tags", "Теги");
  await page.getByRole("textbox", { name: "Новый тег" }).fill("   ");
  await page.getByRole("button", { name: "Создать" }).click();
  await expect(page.getByText("не может быть пустым")).toBeVisible();

  await page.getByRole("textbox", { name: "Новый тег" }).fill(name);
  await page.getByRole("button", { name: "Создать" }).click();
  await expect(page.getByText("Тег создан")).toBeVisible();

  await page.getByRole("textbox", { name: "Поиск тегов" }).fill(name.slice(0, 10).toUpperCase());
  await expect(page).toHaveURL(/q=/);
  await page.reload();
  await expect(page.getByRole("tab", { name: "Теги" })).toHaveAttribute("aria-selected", "true");
  const row = page.getByRole("row", { name: new RegExp(name) });
  await expect(row).toBeVisible();

  await row.getByRole("button", { name: "Переименовать" }).click();
  await page.getByRole("row").getByRole("textbox").fill(`${name} ночью`);
  await page.getByRole("row").getByRole("button", { name: "Сохранить" }).click();
  const renamed = page.getByRole("row", { name: new RegExp(`${name} ночью`) });
  await expect(renamed).toBeVisible();
  await renamed.getByRole("button", { name: "Удалить" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Удалить" }).click();
  await expect(renamed).toHaveCount(0);
});

test("taxonomy: a path creates its taxa; a child is added, renamed and moved in place", async ({ page }) => {
  const root = `Природа ${tag()}`;
  await page.goto("/admin/metadata?tab=taxonomy");
  await page.getByRole("textbox", { name: "Новый путь" }).fill(`${root}/Животные/Кошки`);
  await page.getByRole("button", { name: "Создать" }).click();
  const tree = page.getByRole("tree");
  await expect(tree.getByRole("treeitem", { name: root })).toBeVisible();
  const cats = tree.getByRole("treeitem", { name: "Кошки" }).filter({ hasText: "Кошки" }).last();
  await expect(cats).toHaveAttribute("aria-level", "3");

  const animals = tree.getByRole("treeitem", { name: "Животные" }).last();
  await animals.getByRole("button", { name: "Добавить вложенный" }).click();
  await animals.getByRole("textbox").fill("Собаки");
  await animals.getByRole("button", { name: "Добавить" }).click();
  const dogs = tree.getByRole("treeitem", { name: "Собаки" }).last();
  await expect(dogs).toHaveAttribute("aria-level", "3");

  await dogs.getByRole("button", { name: "Переименовать" }).click();
  await dogs.getByRole("textbox").fill("Псы");
  await dogs.getByRole("button", { name: "Сохранить" }).click();
  const renamed = tree.getByRole("treeitem", { name: "Псы" }).last();
  await expect(renamed).toBeVisible();

  await renamed.getByRole("button", { name: "Переместить" }).click();
  await pick(page, renamed.getByRole("textbox", { name: "Куда" }), root);
  await expect(tree.getByRole("treeitem", { name: "Псы" }).last()).toHaveAttribute("aria-level", "2");
  await page.reload();
  await expect(page.getByRole("tree").getByRole("treeitem", { name: "Псы" }).last()).toHaveAttribute("aria-level", "2");
});

test("lists: a list with records added, edited and deleted; the open list is in the address", async ({ page }) => {
  const listName = `Города ${tag()}`;
  await page.goto("/admin/metadata");
  await openTab(page, "lists", "Списки");
  await page.getByRole("textbox", { name: "Новый список" }).fill(listName);
  await page.getByRole("button", { name: "Создать" }).click();
  await expect(page).toHaveURL(/list=/);
  const list = page.getByRole("region", { name: listName });
  for (const city of ["Москва", "Казань", "Тверь"]) {
    await list.getByRole("textbox", { name: "Новая запись" }).fill(city);
    await list.getByRole("button", { name: "Добавить" }).click();
    await expect(list.getByRole("row", { name: new RegExp(city) })).toBeVisible();
  }
  await list
    .getByRole("row", { name: /Казань/ })
    .getByRole("button", { name: "Изменить" })
    .click();
  await list.getByRole("row").getByRole("textbox").fill("Казань-на-Волге");
  await list.getByRole("row").getByRole("button", { name: "Сохранить" }).click();
  await expect(list.getByRole("row", { name: /Казань-на-Волге/ })).toBeVisible();
  await list.getByRole("row", { name: /Тверь/ }).getByRole("button", { name: "Удалить" }).click();
  await expect(list.getByRole("row", { name: /Тверь/ })).toHaveCount(0);

  await page.reload();
  const again = page.getByRole("region", { name: listName });
  await expect(again.getByRole("row")).toHaveCount(2);
  await expect(again.getByRole("row", { name: /Казань-на-Волге/ })).toBeVisible();
});
