import { fieldTemplates } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { createValues } from "../fields/values";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";

/**
 * The licence a buyer holds, written on the asset as a value of the struct field "Лицензия (магазин)"
 * (docs/decisions/048-shop.md), so the archive sees who may use what next to the file's other metadata.
 * The templates have fixed ids and are inserted OR IGNOREd: creating them is idempotent and race-free, and an
 * admin may rename them without the shop losing track of them.
 */
export const licenceFieldIds = {
  struct: "5a0b0000-0000-4000-8000-00000000f001",
  buyer: "5a0b0000-0000-4000-8000-00000000f002",
  licence: "5a0b0000-0000-4000-8000-00000000f003",
  order: "5a0b0000-0000-4000-8000-00000000f004",
  from: "5a0b0000-0000-4000-8000-00000000f005",
  to: "5a0b0000-0000-4000-8000-00000000f006",
} as const;

const F = licenceFieldIds;
const templates = [
  { id: F.buyer, key: "licence.buyer", name: "Лицензия: покупатель", type: "user", setup: { multiple: false } },
  { id: F.licence, key: "licence.licence", name: "Лицензия: название", type: "text", setup: { multiline: false, multiple: false } },
  { id: F.order, key: "licence.order", name: "Лицензия: заказ", type: "text", setup: { multiline: false, multiple: false } },
  { id: F.from, key: "licence.from", name: "Лицензия: с", type: "date", setup: { with_time: false } },
  { id: F.to, key: "licence.to", name: "Лицензия: по", type: "date", setup: { with_time: false } },
  {
    id: F.struct,
    key: "licence",
    name: "Лицензия (магазин)",
    type: "struct",
    setup: { fields: [F.buyer, F.licence, F.order, F.from, F.to] },
  },
];

export async function ensureLicenceFields(db: Db) {
  const now = nowSeconds();
  await db
    .insert(fieldTemplates)
    .values(
      templates.map((t) => ({
        fieldDefId: t.id,
        name: t.name,
        fieldType: t.type,
        setup: t.setup,
        priority: 100,
        extsys: "shop",
        extsysKey: t.key,
        ctime: now,
        mtime: now,
      })),
    )
    .onConflictDoNothing();
}

const day = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 10);

/** One licence value per delivered asset, written by `seller` (who holds update on the assets). */
export async function recordLicences(
  db: Db,
  seller: AuthUser,
  rows: { assetId: string; buyerId: string; licence: string; orderId: string; from: number; to: number }[],
) {
  if (!rows.length) return [];
  await ensureLicenceFields(db);
  return createValues(
    db,
    seller,
    rows.map((r) => ({
      entity_id: r.assetId,
      entity_type: "asset" as const,
      def_id: F.struct,
      field_data: { [F.buyer]: r.buyerId, [F.licence]: r.licence, [F.order]: r.orderId, [F.from]: day(r.from), [F.to]: day(r.to) },
    })),
    true,
  );
}
