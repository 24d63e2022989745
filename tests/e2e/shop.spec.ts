import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { base, Seeder, unique } from "./browse-seed";
import { ADMIN, createPlainUser, expect, openSignedIn, signedInPage, test } from "./fixtures";

/**
 * The shop in Chromium (docs/decisions/048-shop.md): a user adds two products to the cart and checks out; an
 * admin approves the order and marks it paid; the user sees the delivery links and downloads the files with
 * them, signed out. The catalogue is seeded through the API from Node.
 */

async function seedShop() {
  const seed = await Seeder.admin();
  const group = await seed.group(unique("Фотобанк"));
  const files = await Promise.all(
    ["Рассвет", "Закат"].map(async (name) => {
      const content = `${name}: ${unique("кадр")}`;
      const file = path.join(tmpdir(), `${unique(name).replace(/\s/g, "-")}.txt`);
      writeFileSync(file, content);
      return { name, content, asset: await seed.uploadInto(group, file, "text/plain") };
    }),
  );
  const licence = await seed.call("/api/shop/licences", { json: { name: unique("Эфир"), terms: "Один показ", duration_days: 14 } });
  const products = [];
  for (const f of files) {
    const title = unique(f.name);
    const { product_id } = await seed.call("/api/shop/product", {
      json: { asset_id: f.asset, title, offers: [{ licence_id: licence.licence_id, variant: "original", price: 250_000 }] },
    });
    await seed.call(`/api/shop/product/${product_id}/publish`, { json: { published: true } });
    products.push({ ...f, title, product_id });
  }
  return { seed, group, products };
}

test("a user buys two products, an admin approves and marks paid, the user downloads with the delivery links", async ({
  page,
  browser,
  request,
}) => {
  const { seed, group, products } = await seedShop();
  const user = await createPlainUser(request);
  await seed.call("/api/user/acl", { json: { subj: user.id, obj: group, acl: ["read"] } });

  await openSignedIn(page, { login: user.login, password: user.password }, "/mam");
  await page.getByRole("navigation").getByText("Магазин").click();
  await expect(page).toHaveURL(/\/shop$/);
  for (const p of products) {
    await page.getByPlaceholder("Найти товар…").fill(p.title);
    await page.getByPlaceholder("Найти товар…").press("Enter");
    await expect(page.getByTestId("product-card")).toHaveCount(1);
    await page.getByTestId("product-card").filter({ hasText: p.title }).click();
    await expect(page.getByRole("heading", { name: p.title })).toBeVisible();
    await expect(page.getByTestId("offer")).toContainText(/2\s500,00/);
    await page.getByRole("button", { name: "В корзину" }).click();
    await page.getByRole("link", { name: /К каталогу/ }).click();
  }
  await expect(page.getByTestId("cart-button")).toHaveText("Корзина (2)");
  await page.getByTestId("cart-button").click();
  await expect(page.getByTestId("cart-line")).toHaveCount(2);
  await page.getByRole("button", { name: "Оформить заказ" }).click();
  await expect(page).toHaveURL(/\/shop\/checkout$/);
  await page.getByRole("button", { name: "Подтвердить заказ" }).click();
  await expect(page).toHaveURL(/\/shop\/orders$/);
  const order = page.getByTestId("order").first();
  await expect(order.locator("[data-status]")).toHaveText("Новый");
  const orderId = await order.getAttribute("data-order");
  await expect(page.getByTestId("cart-button")).toHaveText("Корзина (0)");

  const admin = await signedInPage(browser, ADMIN, "/admin/shop");
  const adminOrder = admin.page.locator(`[data-order="${orderId}"]`);
  await adminOrder.getByRole("button", { name: "Подтвердить" }).click();
  await expect(adminOrder.locator("[data-status]")).toHaveText("Ожидает оплаты");
  await adminOrder.getByRole("button", { name: "Оплачен" }).click();
  await expect(adminOrder.locator("[data-status]")).toHaveText("Выполнен");
  await admin.context.close();

  // The buyer's list refreshes itself while an order is open.
  await expect(order.locator("[data-status]")).toHaveText("Выполнен", { timeout: 15_000 });
  const links = order.getByTestId("delivery-link");
  await expect(links).toHaveCount(2);
  const urls = await links.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));

  // Signed out, each link's page downloads its file.
  const visitor = await browser.newContext();
  const v = await visitor.newPage();
  const got: string[] = [];
  for (const url of urls) {
    await v.goto(url);
    const [download] = await Promise.all([v.waitForEvent("download"), v.getByRole("link", { name: "Скачать", exact: true }).click()]);
    got.push(readFileSync((await download.path())!, "utf8"));
  }
  expect(got.sort()).toEqual(products.map((p) => p.content).sort());
  await visitor.close();

  // The invoice prints the order.
  await page.goto(`/shop/invoice/${orderId}`);
  await expect(page.getByRole("heading", { name: /Счёт №/ })).toBeVisible();
  await expect(page.getByText(/Итого: 5\s000,00/)).toBeVisible();
});

test("an admin gives a delivered order's money back: it shows as returned and its links stop working", async ({ browser, request }) => {
  // Seeding a paid order through the API takes most of the default 30 s on a busy machine.
  test.slow();
  const { seed, group, products } = await seedShop();
  const user = await createPlainUser(request);
  await seed.call("/api/user/acl", { json: { subj: user.id, obj: group, acl: ["read"] } });
  const buyer = new Seeder(base);
  await buyer.login(user.login, user.password);
  const p = products[0];
  const { offers } = await buyer.call<{ offers: { offer_id: string }[] }>(`/api/shop/product/${p.product_id}`);
  await buyer.call("/api/shop/cart/items", { json: { product_id: p.product_id, offer_id: offers[0].offer_id } });
  const { order_id } = await buyer.call<{ order_id: string }>("/api/shop/checkout", { json: { provider: "manual" } });
  await seed.call(`/api/shop/order/${order_id}/approve`, { json: {} });
  const paid = await seed.call<{ items: { delivery_url: string }[] }>(`/api/shop/order/${order_id}/mark-paid`, { json: {} });
  const link = paid.items[0].delivery_url;

  const admin = await signedInPage(browser, ADMIN, "/admin/shop");
  const adminOrder = admin.page.locator(`[data-order="${order_id}"]`);
  await expect(adminOrder.locator("[data-status]")).toHaveText("Выполнен");
  await adminOrder.getByRole("button", { name: "Вернуть деньги" }).click();
  const dialog = admin.page.getByRole("dialog", { name: "Вернуть деньги" });
  await expect(dialog.getByText(/Ссылки на скачивание перестанут работать/)).toBeVisible();
  await dialog.getByRole("button", { name: "Вернуть деньги" }).click();
  await expect(adminOrder.locator("[data-status]")).toHaveText("Возвращён");
  await expect(adminOrder.getByRole("button", { name: "Вернуть деньги" })).toHaveCount(0);
  await admin.context.close();

  const visitor = await browser.newContext();
  const v = await visitor.newPage();
  await v.goto(link);
  await expect(v.getByText("Ссылка отозвана отправителем.")).toBeVisible();
  await expect(v.getByRole("link", { name: "Скачать", exact: true })).toHaveCount(0);
  await visitor.close();
});
