import { Seeder, unique } from "./browse-seed";
import { ADMIN, expect, openSignedIn, test } from "./fixtures";

/**
 * The /search screen in Chromium: a query typed, an autocomplete entry picked, a facet ticked, a result opened,
 * and the back button bringing the same search back (it lives in the address).
 */

test("a search: pick a suggestion, filter by a facet, open a result, come back to the same state", async ({ page }) => {
  const seed = await Seeder.admin();
  // A word of this run alone (digits: no stemmer touches it), so earlier runs' assets never match.
  const token = `k${Date.now().toString().slice(-7)}`;
  const groupId = await seed.group(unique("Поиск"));
  const assets = await seed.call<{ asset_id: string }[]>("/api/asset/create-list", {
    json: {
      assets: [
        { asset_name: `Капибара у реки ${token}.jpg`, asset_mime: "image/jpeg", in_group: groupId },
        { asset_name: `Капибары на траве ${token}.png`, asset_mime: "image/png", in_group: groupId },
        { asset_name: `Капибара плавает ${token}.mp4`, asset_mime: "video/mp4", in_group: groupId },
      ],
    },
  });
  const tag = await seed.call<{ tag_id: string }>("/api/tags/create", { json: { tag_name: `Капибары ${token}` } });
  await seed.call("/api/tags/attach", {
    json: { tag_ids: [tag.tag_id], entities: assets.map((a) => ({ id: a.asset_id, type: "asset" })) },
  });

  await openSignedIn(page, ADMIN, "/search");
  await expect(page.getByText("Введите запрос или выберите фильтры")).toBeVisible();
  const box = page.getByRole("textbox", { name: "Поиск" });
  await box.fill(`капибары ${token}`);
  const suggestion = page
    .getByRole("option")
    .filter({ hasText: `Капибары ${token}` })
    .filter({ hasText: "тег" });
  await expect(suggestion).toBeVisible();
  // Arrows move through the suggestions and Enter picks: the tag becomes a filter.
  const options = page.getByRole("option");
  const index = (await options.allTextContents()).findIndex((t) => t.includes(`Капибары ${token}`) && t.includes("тег"));
  for (let i = 0; i <= index; i++) await box.press("ArrowDown");
  await box.press("Enter");
  await expect(page).toHaveURL(new RegExp(`tags=${tag.tag_id}`));
  const results = page.getByRole("list", { name: "Поиск" }).getByRole("listitem");
  await expect(results).toHaveCount(3);
  await expect(page.getByText("Найдено: 3")).toBeVisible();

  const types = page.getByRole("group", { name: "Тип" });
  await expect(types.getByRole("checkbox", { name: "Видео (1)" })).toBeVisible();
  // The box is ticked once the narrowed search has loaded (its state is the address's).
  await types.getByRole("checkbox", { name: "Изображения (2)" }).click();
  await expect(page).toHaveURL(/mime=image/);
  await expect(types.getByRole("checkbox", { name: "Изображения (2)" })).toBeChecked();
  await expect(results).toHaveCount(2);

  const first = results.first().getByRole("link");
  const name = (await first.textContent()) ?? "";
  expect(name).toMatch(/^Капибар/);
  await first.click();
  await expect(page).toHaveURL(/\/asset\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name })).toBeVisible();

  await page.goBack();
  await expect(page).toHaveURL(/mime=image/);
  await expect(results).toHaveCount(2);
  await expect(page.getByRole("group", { name: "Тип" }).getByRole("checkbox", { name: "Изображения (2)" })).toBeChecked();
});

test("a query finds the word in any form and marks it; nothing found says so", async ({ page }) => {
  const seed = await Seeder.admin();
  const token = `k${Date.now().toString().slice(-7)}`;
  const groupId = await seed.group(unique("Поиск"));
  await seed.call("/api/asset/create", { json: { asset_name: `Ёжики в тумане ${token}.mp4`, asset_mime: "video/mp4", in_group: groupId } });
  await openSignedIn(page, ADMIN, `/search?q=${encodeURIComponent(`ежика ${token}`)}`);
  const results = page.getByRole("list", { name: "Поиск" }).getByRole("listitem");
  await expect(results).toHaveCount(1);
  await expect(results.first().locator("mark").first()).toHaveText("Ёжики");
  const box = page.getByRole("textbox", { name: "Поиск" });
  await box.fill(`бегемот ${token}`);
  await box.press("Enter");
  await expect(page.getByText("Ничего не найдено")).toBeVisible();
  await page.goBack();
  await expect(results).toHaveCount(1);
});
