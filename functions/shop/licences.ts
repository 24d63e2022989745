import { asc, eq } from "drizzle-orm";
import { shopLicences, shopOffers, type ShopLicence } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { newId } from "../lib/ids";
import type { LicenceBody, LicenceOut, LicencePatch } from "../../shared/shop/schemas";

/** Licences (admins): what a buyer may do with what they bought, and how long its delivery link works. */

export const licenceOut = (l: ShopLicence): LicenceOut => ({
  licence_id: l.licenceId,
  name: l.name,
  terms: l.terms,
  duration_days: l.durationDays,
});

export async function listLicences(db: Db) {
  return (await db.select().from(shopLicences).orderBy(asc(shopLicences.name))).map(licenceOut);
}

async function licenceById(db: Db, id: string) {
  const row = await db.select().from(shopLicences).where(eq(shopLicences.licenceId, id)).get();
  if (!row) throw new ApiError("not_found", "Лицензия не найдена");
  return row;
}

const event = (db: Db, auth: AuthUser, kind: string, l: ShopLicence) =>
  eventInsert(db, {
    kind,
    userId: auth.userId,
    entityType: "shop_licence",
    entityId: l.licenceId,
    data: { name: l.name, duration_days: l.durationDays },
  });

export async function createLicence(db: Db, auth: AuthUser, b: LicenceBody) {
  const now = nowSeconds();
  const row: ShopLicence = {
    licenceId: newId(),
    name: b.name,
    terms: b.terms,
    durationDays: b.duration_days ?? null,
    ctime: now,
    mtime: now,
  };
  await db.batch([db.insert(shopLicences).values(row), event(db, auth, "shop.licence.create", row)]);
  return licenceOut(row);
}

/** Editing a licence changes what future orders snapshot; placed orders keep their copy. */
export async function patchLicence(db: Db, auth: AuthUser, id: string, b: LicencePatch) {
  const row = await licenceById(db, id);
  const next: ShopLicence = {
    ...row,
    ...(b.name !== undefined ? { name: b.name } : {}),
    ...(b.terms !== undefined ? { terms: b.terms } : {}),
    ...(b.duration_days !== undefined ? { durationDays: b.duration_days } : {}),
    mtime: nowSeconds(),
  };
  const { licenceId: _id, ctime: _c, ...set } = next;
  await db.batch([db.update(shopLicences).set(set).where(eq(shopLicences.licenceId, id)), event(db, auth, "shop.licence.update", next)]);
  return licenceOut(next);
}

/** A licence some offer still sells under cannot go (409): withdraw those offers first. */
export async function deleteLicence(db: Db, auth: AuthUser, id: string) {
  const row = await licenceById(db, id);
  const used = await db.select({ id: shopOffers.offerId }).from(shopOffers).where(eq(shopOffers.licenceId, id)).limit(1).get();
  if (used) throw new ApiError("conflict", "По этой лицензии есть предложения товаров: сначала уберите их");
  await db.batch([db.delete(shopLicences).where(eq(shopLicences.licenceId, id)), event(db, auth, "shop.licence.delete", row)]);
}
