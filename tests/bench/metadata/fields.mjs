/**
 * Custom fields (tests/bench/metadata.mjs seeds the world): for-entity on random assets, entities-by-field
 * eq on an indexed text field and a range on a number (a page of 50 and the total), bulk 1,000 values in one call.
 * Aims: for-entity p95 < 10 ms, entities-by-field p95 < 30 ms, bulk < 1 s.
 */
export default async function fields({ call, post, bearer, assets, assetId, template, time, runs }) {
  const pick = () => assetId(1 + Math.floor(Math.random() * assets));
  const one = await call(`/api/fields/for-entity/${pick()}`, bearer);
  if (one.length !== 10) throw new Error(`for-entity: ${one.length} values, expected 10`);
  await time("whoami (a signed-in request's fixed cost)", () => call("/api/auth/whoami", bearer));
  await time("for-entity (10 values, a random asset)", () => call(`/api/fields/for-entity/${pick()}`, bearer));
  await time("for-entity, pts range [10, 20]", () => call(`/api/fields/for-entity/${pick()}?pts_from=10&pts_to=20`, bearer));

  const eq = { def_id: template(0), op: "eq", value: "Рубрика 0042", skip: 0, take: 50 };
  const eqPage = await post("/api/fields/entities-by-field", bearer, eq);
  await time(`entities-by-field eq text (${eqPage.total} match)`, () => post("/api/fields/entities-by-field", bearer, eq));
  const range = { def_id: template(1), op: "gte", skip: 0, take: 50 };
  const rPage = await post("/api/fields/entities-by-field", bearer, { ...range, op: "lt", value: 1_000 });
  await time(`entities-by-field range number lt (${rPage.total} match)`, () =>
    post("/api/fields/entities-by-field", bearer, { ...range, op: "lt", value: 1_000 }),
  );
  const gPage = await post("/api/fields/entities-by-field", bearer, { ...range, value: assets - 1_000 });
  await time(`entities-by-field range number gte (${gPage.total} match)`, () =>
    post("/api/fields/entities-by-field", bearer, { ...range, value: assets - 1_000 }),
  );

  const bulk = (n) =>
    Array.from({ length: 1000 }, (_, i) => ({
      entity_id: assetId(1 + ((n * 1000 + i) % assets)),
      entity_type: "asset",
      def_id: template(5),
      field_data: `Оператор ${n}`,
    }));
  await time(
    "create-list, 1,000 values in one call",
    (n) => post("/api/fields/create-list", bearer, { values: bulk(n) }),
    Math.min(runs, 10),
  );
}
