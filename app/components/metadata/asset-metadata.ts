import {
  type AssetClass,
  type FieldTemplate,
  type FieldValue,
  listClasses,
  listRecords,
  listTemplates,
  type Taxon,
  taxaOf,
  valuesOf,
} from "../../lib/metadata-api";
import type { FieldLookup } from "./FieldInput";

/** What the asset's metadata section shows: its values, the templates they and its class use, its taxa. */
export interface AssetMetadata {
  templates: FieldTemplate[];
  /** Whole-asset values (no time code); time-coded ones belong to the player's timeline. */
  values: FieldValue[];
  timecoded: FieldValue[];
  /** The class's fields in its order, then the templates of the other values. */
  shown: FieldTemplate[];
  className: string | null;
  lookup: FieldLookup;
  taxa: Taxon[];
}

/** Loaded with the asset info screen (its route's loader): one call per kind of data, lists only for fields that pick. */
export async function loadAssetMetadata(asset: { asset_id: string; class: string | null }, signal?: AbortSignal): Promise<AssetMetadata> {
  const [templates, all, classes, taxa] = await Promise.all([
    listTemplates(signal),
    valuesOf(asset.asset_id, "asset", signal),
    asset.class ? listClasses(signal) : Promise.resolve([] as AssetClass[]),
    taxaOf(asset.asset_id, signal),
  ]);
  const byId = new Map(templates.map((t) => [t.field_def_id, t]));
  const cls = classes.find((c) => c.id === asset.class) ?? null;
  const values = all.filter((v) => v.pts === null);
  const order = [...(cls?.def_fields ?? []), ...values.map((v) => v.def_id)];
  const shown = [...new Set(order)].flatMap((id) => byId.get(id) ?? []);
  const listIds = [
    ...new Set(
      templates.flatMap((t) =>
        t.field_type === "text" && "list_id" in t.field_setup && t.field_setup.list_id ? [t.field_setup.list_id as string] : [],
      ),
    ),
  ];
  const records = await Promise.all(listIds.map((id) => listRecords(id, signal).then((rs) => [id, rs.map((r) => r.rec_data)] as const)));
  return {
    templates,
    values,
    timecoded: all.filter((v) => v.pts !== null),
    shown,
    className: cls?.name ?? null,
    lookup: { templates, choices: Object.fromEntries(records) },
    taxa,
  };
}
