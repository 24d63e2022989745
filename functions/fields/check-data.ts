import type { FieldTemplate } from "../../db/schema";
import { uuidRe } from "../../shared/groups/schemas";
import type { FieldSetups, FieldType } from "../../shared/fields/schemas";

/**
 * field_data against its template, without the database: shape, type and setup. What needs the
 * database (references that exist and are readable, list records) is collected in `pending` for
 * ./validate.ts to check in one round trip for a whole batch.
 */

export interface Problem {
  field: string;
  message: string;
}

export interface Pending {
  refs: { kind: "asset" | "group" | "user"; id: string; field: string }[];
  listValues: { listId: string; value: string; field: string }[];
}

export type Templates = Map<string, FieldTemplate>;

const dateRe = /^\d{4}-\d{2}-\d{2}$/;
const dateTimeRe = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/;
const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
/** Struct inside struct is allowed; this bounds the walk should setups ever form a cycle. */
const MAX_DEPTH = 4;

/** Checks `data` for template `t`; problems are named `field` (e.g. "field_data", "field_data.<sub id>"). */
export function checkData(t: FieldTemplate, data: unknown, field: string, templates: Templates, pending: Pending, depth = 0): Problem[] {
  const type = t.fieldType as FieldType;
  const bad = (message: string) => [{ field, message }];
  const each = (multiple: boolean, one: (v: unknown, f: string) => Problem[], kind: string): Problem[] => {
    if (!multiple) return one(data, field);
    if (!Array.isArray(data)) return bad(`должен быть списком (${kind})`);
    if (data.length > 1000) return bad("не больше 1000 значений");
    return data.flatMap((v, i) => one(v, `${field}.${i}`));
  };
  switch (type) {
    case "text": {
      const s = t.setup as FieldSetups["text"];
      return each(
        s.multiple,
        (v, f) => {
          if (typeof v !== "string") return [{ field: f, message: "должен быть строкой" }];
          if (s.max_length !== undefined && v.length > s.max_length) return [{ field: f, message: `не длиннее ${s.max_length} символов` }];
          if (!s.multiline && /[\r\n]/.test(v)) return [{ field: f, message: "должен быть одной строкой" }];
          if (s.list_id) pending.listValues.push({ listId: s.list_id, value: v, field: f });
          return [];
        },
        "строк",
      );
    }
    case "number": {
      const s = t.setup as FieldSetups["number"];
      if (!isNum(data)) return bad("должен быть числом");
      if (s.min !== undefined && data < s.min) return bad(`не меньше ${s.min}`);
      if (s.max !== undefined && data > s.max) return bad(`не больше ${s.max}`);
      if (s.step !== undefined) {
        const steps = (data - (s.min ?? 0)) / s.step;
        if (Math.abs(steps - Math.round(steps)) > 1e-9) return bad(`должен быть кратен шагу ${s.step}`);
      }
      return [];
    }
    case "date": {
      const s = t.setup as FieldSetups["date"];
      const ok = typeof data === "string" && (s.with_time ? dateTimeRe.test(data) : dateRe.test(data)) && !Number.isNaN(Date.parse(data));
      return ok ? [] : bad(s.with_time ? "должен быть датой и временем ISO 8601 (ГГГГ-ММ-ДДTчч:мм:сс)" : "должен быть датой ГГГГ-ММ-ДД");
    }
    case "time": {
      const s = t.setup as FieldSetups["time"];
      if (!isNum(data) || data < 0) return bad("должен быть числом секунд не меньше 0");
      return s.kind === "time_of_day" && data >= 86_400 ? bad("время суток должно быть меньше 24:00:00") : [];
    }
    case "asset":
    case "group":
    case "user": {
      const s = t.setup as FieldSetups["asset"];
      return each(
        s.multiple,
        (v, f) => {
          if (typeof v !== "string" || !uuidRe.test(v)) return [{ field: f, message: "должен быть идентификатором (UUID)" }];
          pending.refs.push({ kind: type, id: v.toLowerCase(), field: f });
          return [];
        },
        "идентификаторов",
      );
    }
    case "region": {
      if (!isObj(data)) return bad("должен быть прямоугольником {x, y, w, h} в долях кадра");
      const extra = Object.keys(data).filter((k) => !["x", "y", "w", "h"].includes(k));
      if (extra.length) return bad(`лишние ключи: ${extra.join(", ")}`);
      const { x, y, w, h } = data;
      if (![x, y, w, h].every((n) => isNum(n) && n >= 0 && n <= 1)) return bad("x, y, w, h должны быть числами от 0 до 1");
      if ((x as number) + (w as number) > 1 + 1e-9 || (y as number) + (h as number) > 1 + 1e-9) return bad("прямоугольник выходит за кадр");
      return [];
    }
    case "struct": {
      const s = t.setup as FieldSetups["struct"];
      if (!isObj(data)) return bad("должен быть объектом {идентификатор подполя: значение}");
      if (depth >= MAX_DEPTH) return bad("слишком глубокая вложенность");
      return Object.entries(data).flatMap(([key, v]) => {
        const sub = s.fields.includes(key) ? templates.get(key) : undefined;
        if (!sub) return [{ field: `${field}.${key}`, message: "нет такого подполя" }];
        return checkData(sub, v, `${field}.${key}`, templates, pending, depth + 1);
      });
    }
    case "bool":
      return typeof data === "boolean" ? [] : bad("должен быть true или false");
    default:
      return bad(`неизвестный тип поля ${type}`);
  }
}

/** The typed copy of a single scalar value that entities-by-field seeks on; null for lists, regions and structs. */
export function indexedValue(t: FieldTemplate, data: unknown): { valueText: string | null; valueNum: number | null } {
  const none = { valueText: null, valueNum: null };
  if ((t.setup as { multiple?: boolean }).multiple) return none;
  switch (t.fieldType as FieldType) {
    case "text":
    case "date":
      return { valueText: data as string, valueNum: null };
    case "asset":
    case "group":
    case "user":
      return { valueText: (data as string).toLowerCase(), valueNum: null };
    case "number":
    case "time":
      return { valueText: null, valueNum: data as number };
    case "bool":
      return { valueText: null, valueNum: data ? 1 : 0 };
    default:
      return none;
  }
}

/** Which typed column holds a template's values, or null when they are only in field_data (JSON). */
export function indexedColumn(t: FieldTemplate): "value_text" | "value_num" | null {
  if ((t.setup as { multiple?: boolean }).multiple) return null;
  const type = t.fieldType as FieldType;
  if (["text", "date", "asset", "group", "user"].includes(type)) return "value_text";
  if (["number", "time", "bool"].includes(type)) return "value_num";
  return null;
}
