import { collection, field } from '@convapi/dsl';

/**
 * Visits to the clinic, each for one pet. `scheduled_at` is written with any ISO 8601 offset and
 * served in UTC (`2026-12-02T09:30:00+02:00` is served as `2026-12-02T07:30:00Z`). Lists sort by it
 * or by the fee and compare both: `GET /v1/visits?scheduled_at.gte=2026-12-01T00:00:00Z&sort=-scheduled_at`.
 * A pet's visits are also served below it (`parent: 'pet'`): `GET /v1/pets/3/visits?sort=-scheduled_at`,
 * `POST /v1/pets/3/visits` (the pet taken from the path). `products` lists the products used, each
 * served as its URI (`/v1/products/blue-mug`), inlined with `X-Expansion-Fields: true`.
 */
export default collection({
  name: 'visits',
  identifier: { name: 'visit_id', type: 'integer' },
  parent: 'pet',
  fields: {
    pet: field.reference('pets', { required: true, filterable: true }),
    scheduled_at: field.time({ required: true, filterable: true, sortable: true }),
    reason: field.string({ minLength: 1, searchable: true }),
    fee: field.number({ min: 0, filterable: true, sortable: true }),
    // A many-to-many: the products used in the visit, served as their URIs (`?products.contains=blue-mug`).
    products: field.array(field.reference('products'), { maxItems: 20, uniqueItems: true, filterable: true }),
    // Long by declaration: a whole report fits (a string without maxLength takes at most 10,000 characters).
    report: field.string({
      maxLength: 1_000_000,
      description: 'What the vet wrote after the visit, up to a million characters.',
    }),
  },
  versions: { v1: {}, v2: {} },
});
