import { unique } from "./browse-seed";
import { ADMIN, apiBearer, expect, gotoSignedIn, test } from "./fixtures";

/**
 * «Шаблоны задач» in Chromium against the real server: a template is created with its operation's settings, a
 * setting the server's schema refuses is named under the settings, and an edit renames and switches it off.
 */

test.use({ signedInAs: ADMIN });

test("«Шаблоны задач»: create with settings, a refused setting is named, an edit renames and switches off", async ({ page, request }) => {
  const name = unique("Превью для сайта");
  await gotoSignedIn(page, "/admin/task-templates");
  await expect(page.getByRole("heading", { name: "Шаблоны задач" })).toBeVisible();

  await page.getByRole("button", { name: "Новый шаблон" }).click();
  const dialog = page.getByRole("dialog", { name: "Новый шаблон задачи" });
  await dialog.getByLabel("Название").fill(name);
  const setup = dialog.getByLabel("Настройки (JSON)");
  // Beyond the preview's limit of 4096: the form checks with the server's schema and names the field.
  await setup.fill('{"width": 99999, "height": 450}');
  await dialog.getByRole("button", { name: "Сохранить" }).click();
  await expect(dialog.getByText(/width:/)).toBeVisible();
  await setup.fill("{not json");
  await dialog.getByRole("button", { name: "Сохранить" }).click();
  await expect(dialog.getByText("не разбирается как JSON-объект")).toBeVisible();
  await setup.fill('{"width": 800, "height": 450}');
  await dialog.getByRole("button", { name: "Сохранить" }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByTestId("template-row").filter({ hasText: name });
  await expect(row).toContainText("Превью");
  await expect(row).toContainText("Включён");

  const bearer = await apiBearer(request, ADMIN.login, ADMIN.password);
  const stored = async (named: string) => {
    const res = await request.get("/api/tasklist/task-templates/all", { headers: { Authorization: `Bearer ${bearer}` } });
    expect(res.ok(), await res.text()).toBe(true);
    const list = (await res.json()) as { name: string; disabled: boolean; setup: { width?: number } }[];
    return list.find((t) => t.name === named);
  };
  expect((await stored(name))?.setup.width).toBe(800);

  const renamed = `${name} (архив)`;
  await row.getByRole("button", { name: "Изменить" }).click();
  const edit = page.getByRole("dialog", { name: "Шаблон задачи" });
  await expect(edit.getByLabel("Название")).toHaveValue(name);
  await edit.getByLabel("Название").fill(renamed);
  await edit.getByText("Выключить шаблон").click();
  await edit.getByRole("button", { name: "Сохранить" }).click();
  await expect(edit).toBeHidden();
  const renamedRow = page.getByTestId("template-row").filter({ hasText: renamed });
  await expect(renamedRow).toContainText("Выключен");
  await expect.poll(async () => (await stored(renamed))?.disabled).toBe(true);
});
