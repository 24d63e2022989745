import { z } from "@hono/zod-openapi";
import { PAGE_SIZE, VIRTUAL_ROOT_ID } from "./constants";

/**
 * Ids and paging as every resource's schemas check them (they lived in groups/schemas.ts, which re-exports them).
 * Shared by the API validator and the front end's forms: no server imports here.
 */

export const uuidRe = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const entityId = z
  .string({ error: "обязательное поле" })
  .regex(uuidRe, "должен быть идентификатором (UUID)")
  .transform((s) => s.toLowerCase())
  .openapi({ example: VIRTUAL_ROOT_ID });

export const idParam = z.object({ id: entityId.openapi({ param: { name: "id", in: "path" } }) });
export const idsBody = z
  .object({ ids: z.array(entityId, { error: "нужен список идентификаторов" }).min(1, "список пуст").max(100, "не больше 100 за раз") })
  .openapi("IdsBody");

export const pageQuery = z.object({
  skip: z.coerce.number({ error: "должно быть числом" }).int().min(0, "не меньше 0").default(0),
  take: z.coerce.number({ error: "должно быть числом" }).int().min(1, "не меньше 1").max(200, "не больше 200").default(PAGE_SIZE),
});

/** `take` of the lists read 20 at a time and at most 100 (duplicates, «Входящие»). */
export const shortPageTake = z.coerce
  .number({ error: "должно быть числом" })
  .int("должно быть целым")
  .min(1, "не меньше 1")
  .max(100, "не больше 100")
  .default(20);
