import { z } from "@hono/zod-openapi";
import { entityId } from "../groups/schemas";

/** Lists (controlled vocabularies) and their records: shared by the API validator and the front end (no server imports). */

const text = (max: number) =>
  z.string({ error: "обязательное поле" }).trim().min(1, "не может быть пустым").max(max, `не длиннее ${max} символов`);

export const listBody = z.object({ list_name: text(255) }).openapi("ListBody");
export const recordBody = z
  .object({ rec_data: text(1000).refine((s) => !/[\r\n]/.test(s), "должна быть одной строкой") })
  .openapi("ListRecordBody");

export const listParam = z.object({ list_id: entityId.openapi({ param: { name: "list_id", in: "path" } }) });
export const recordParam = listParam.extend({ rec_id: entityId.openapi({ param: { name: "rec_id", in: "path" } }) });

export const list = z.object({ list_id: z.string(), list_name: z.string() }).openapi("List");
export const listRecord = z.object({ list_id: z.string(), rec_id: z.string(), rec_data: z.string() }).openapi("ListRecord");
export const listIdOut = z.object({ list_id: z.string() }).openapi("ListId");
export const recIdOut = z.object({ rec_id: z.string() }).openapi("ListRecordId");
export const ok = z.object({ ok: z.literal(true) }).openapi("ListsOk");
