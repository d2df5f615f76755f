import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { lintDefinitions, type Diagnostic } from '../../../codegen/lint/index.ts';
import { writeDefinitions } from '../../support/temp-definitions.ts';

/** zod by absolute path, so a definition in a temporary folder finds it (and its types). */
const ZOD_IMPORT = createRequire(import.meta.url).resolve('zod');

const orders = `import { collection, field } from 'DSL';
export default collection({
  name: 'orders',
  fields: { item: field.string({ required: true }) },
  versions: { v1: {} },
});
`;

type Want = Pick<Diagnostic, 'rule' | 'severity' | 'message' | 'file' | 'line' | 'column'>;

const cases: [string, { given: Record<string, string>; want: Want[] }][] = [
  [
    'path-segment-case: uppercase and underscores',
    {
      given: {
        'trade-orders.ts': `import { collection, field } from 'DSL';
export default collection({
  name: 'Trade_Orders',
  fields: {},
  versions: { v1: {} },
});
`,
      },
      want: [
        {
          rule: 'path-segment-case',
          severity: 'error',
          message:
            'path segment "Trade_Orders" of collection "Trade_Orders" has uppercase letters, underscores or other characters; paths are lowercase with words joined by hyphens: use "trade-orders"',
          file: 'definitions/trade-orders.ts',
          line: 3,
          column: 3,
        },
      ],
    },
  ],
  [
    "path-segment-case: an own operation's path below a resource, not one plural lowercase segment",
    {
      given: {
        'moves.ts': `import { collection, field } from 'DSL';
export default collection({
  name: 'moves',
  fields: { room: field.string() },
  ownOperations: [{ method: 'POST', path: 'Slot', handle: () => ({}) }],
  versions: { v1: {} },
});
`,
      },
      want: [
        {
          rule: 'path-segment-case',
          severity: 'error',
          message:
            'own operation path "Slot" of collection "moves" is not one plural lowercase segment with words joined by hyphens (it names a sub-resource of one move, one level below it, as the conventions name collections): use "slots"',
          file: 'definitions/moves.ts',
          line: 5,
          column: 37,
        },
      ],
    },
  ],
  [
    'plural-collection',
    {
      given: { 'order.ts': orders.replace("name: 'orders'", "name: 'order'") },
      want: [
        {
          rule: 'plural-collection',
          severity: 'error',
          message: 'collection name "order" is not plural; a collection path is the plural name: name it "orders"',
          file: 'definitions/order.ts',
          line: 3,
          column: 3,
        },
      ],
    },
  ],
  [
    'nesting-depth: an aggregate of an aggregate',
    {
      given: {
        'users.ts': `import { collection, field } from 'DSL';
export default collection({ name: 'users', fields: {}, versions: { v1: {} } });
`,
        'profiles.ts': `import { aggregate, field } from 'DSL';
export default aggregate({ name: 'profiles', parent: 'users', fields: {}, versions: { v1: {} } });
`,
        'photos.ts': `import { aggregate, field } from 'DSL';
export default aggregate({
  name: 'photos',
  parent: 'profiles',
  fields: {},
  versions: { v1: {} },
});
`,
      },
      want: [
        {
          rule: 'nesting-depth',
          severity: 'error',
          message:
            'aggregate "photos" under aggregate "profiles" would nest resources three levels deep; paths nest at most two levels: make it an aggregate of a collection, or turn the deeper condition into a query parameter',
          file: 'definitions/photos.ts',
          line: 4,
          column: 3,
        },
      ],
    },
  ],
  [
    'nesting-depth: a sub-collection below a sub-collection',
    {
      given: {
        'owners.ts': `import { collection, field } from 'DSL';
export default collection({ name: 'owners', fields: {}, versions: { v1: {} } });
`,
        'pets.ts': `import { collection, field } from 'DSL';
export default collection({ name: 'pets', parent: 'owner', fields: { owner: field.reference('owners') }, versions: { v1: {} } });
`,
        'visits.ts': `import { collection, field } from 'DSL';
export default collection({
  name: 'visits',
  parent: 'pet',
  fields: { pet: field.reference('pets', { required: true }) },
  versions: { v1: {} },
});
`,
      },
      want: [
        {
          rule: 'nesting-depth',
          severity: 'error',
          message:
            'collection "visits" below "pets", itself below "owners", would nest resources three levels deep; paths nest at most two levels: drop "parent" here (filter visits by pet instead: /{version}/visits?pet=...), or drop the parent of "pets"',
          file: 'definitions/visits.ts',
          line: 4,
          column: 3,
        },
      ],
    },
  ],
  [
    'parent-field: a parent that is not a reference field',
    {
      given: {
        'pets.ts': `import { collection, field } from 'DSL';
export default collection({ name: 'pets', fields: {}, versions: { v1: {} } });
`,
        'visits.ts': `import { collection, field } from 'DSL';
export default collection({
  name: 'visits',
  fields: { pet: field.reference('pets'), reason: field.string() },
  parent: 'reason',
  versions: { v1: {} },
});
`,
      },
      want: [
        {
          rule: 'parent-field',
          severity: 'error',
          message:
            'parent of collection "visits" names "reason", a string field, not a reference; the parent is the row a reference field names: name one of its reference fields (pet)',
          file: 'definitions/visits.ts',
          line: 5,
          column: 3,
        },
      ],
    },
  ],
  [
    "path-identifiers: a sub-collection's identifier named as its parent's",
    {
      given: {
        'pets.ts': `import { collection, field } from 'DSL';
export default collection({
  name: 'pets',
  identifier: { name: 'pet_id', type: 'integer' },
  fields: {},
  versions: { v1: {} },
});
`,
        'visits.ts': `import { collection, field } from 'DSL';
export default collection({
  name: 'visits',
  identifier: { name: 'pet_id', type: 'integer' },
  fields: { pet: field.reference('pets') },
  parent: 'pet',
  versions: { v1: {} },
});
`,
      },
      want: [
        {
          rule: 'path-identifiers',
          severity: 'error',
          message:
            'collection "visits" names its identifier "pet_id", as its parent "pets" does: its items would be served at /{version}/pets/{pet_id}/visits/{pet_id}, one name for two identifiers: rename it (visit_id)',
          file: 'definitions/visits.ts',
          line: 4,
          column: 17,
        },
      ],
    },
  ],
  [
    'aggregate-parent: a collection makes the aggregate reachable at the top level',
    {
      given: {
        'users.ts': `import { collection } from 'DSL';
export default collection({ name: 'users', fields: {}, versions: { v1: {} } });
`,
        'profiles.ts': `import { aggregate } from 'DSL';
export default aggregate({ name: 'profiles', parent: 'users', fields: {}, versions: { v1: {} } });
`,
        'profiles-top.ts': `import { collection } from 'DSL';
export default collection({
  name: 'profiles',
  fields: {},
  versions: { v1: {} },
});
`,
      },
      want: [
        {
          rule: 'aggregate-parent',
          severity: 'error',
          message:
            'collection "profiles" makes aggregate "profiles" reachable at the top level (the aggregate is declared at definitions/profiles.ts:2:28); an aggregate is reached only through its parent "users": remove or rename the collection',
          file: 'definitions/profiles-top.ts',
          line: 3,
          column: 3,
        },
      ],
    },
  ],
  [
    'aggregate-parent: an undeclared parent',
    {
      given: {
        'profiles.ts': `import { aggregate } from 'DSL';
export default aggregate({
  name: 'profiles',
  parent: 'people',
  fields: {},
  versions: { v1: {} },
});
`,
      },
      want: [
        {
          rule: 'aggregate-parent',
          severity: 'error',
          message:
            'parent "people" of aggregate "profiles" is not a declared collection; an aggregate is reached only through its parent: name a collection',
          file: 'definitions/profiles.ts',
          line: 4,
          column: 3,
        },
      ],
    },
  ],
  [
    'property-name-case: a field, a nested field and the identifier',
    {
      given: {
        'orders.ts': `import { collection, field } from 'DSL';
export default collection({
  name: 'orders',
  identifier: { name: 'orderID' },
  fields: {
    item_Name: field.string(),
    box: field.object({ inner__x: field.string() }),
  },
  versions: { v1: {} },
});
`,
      },
      want: [
        {
          rule: 'property-name-case',
          severity: 'error',
          message: 'identifier "orderID" is not lowercase snake_case: name it "order_id"',
          file: 'definitions/orders.ts',
          line: 4,
          column: 17,
        },
        {
          rule: 'property-name-case',
          severity: 'error',
          message: 'property "item_Name" is not lowercase snake_case: name it "item_name"',
          file: 'definitions/orders.ts',
          line: 6,
          column: 5,
        },
        {
          rule: 'property-name-case',
          severity: 'error',
          message: 'property "inner__x" is not lowercase snake_case: name it "inner_x"',
          file: 'definitions/orders.ts',
          line: 7,
          column: 25,
        },
      ],
    },
  ],
  [
    'unknown-reference: points at the referenced name',
    {
      given: {
        'orders.ts': orders,
        'trades.ts': `import { collection, field } from 'DSL';
export default collection({
  name: 'trades',
  fields: {
    order: field.reference('ordres'),
  },
  versions: { v1: {} },
});
`,
      },
      want: [
        {
          rule: 'unknown-reference',
          severity: 'error',
          message:
            'field "order" refers to "ordres", which no definition declares; declared collections: orders, trades',
          file: 'definitions/trades.ts',
          line: 5,
          column: 28,
        },
      ],
    },
  ],
  [
    'reference-version: a version references a collection that version does not serve, reported once at the field',
    {
      given: {
        'pets.ts': `import { collection, field } from 'DSL';
export default collection({
  name: 'pets',
  fields: { pet_name: field.string() },
  versions: { v1: {} },
});
`,
        'visits.ts': `import { collection, field } from 'DSL';
export default collection({
  name: 'visits',
  fields: {
    pet: field.reference('pets'),
  },
  versions: { v1: {}, v2: {}, v3: {} },
});
`,
      },
      want: [
        {
          rule: 'reference-version',
          severity: 'error',
          message:
            'field "pet" refers to "pets" in v2 and v3, but "pets" is served only in v1: its links there would answer 404; serve "pets" in v2 and v3 too, or give v2 and v3 a shape without "pet"',
          file: 'definitions/visits.ts',
          line: 5,
          column: 5,
        },
      ],
    },
  ],
  [
    'reference-version: an array of references to a collection a version does not serve, as a single reference',
    {
      given: {
        'products.ts': `import { collection, field } from 'DSL';
export default collection({
  name: 'products',
  identifier: { name: 'sku', type: 'string' },
  fields: { title: field.string() },
  versions: { v1: {} },
});
`,
        'visits.ts': `import { collection, field } from 'DSL';
export default collection({
  name: 'visits',
  fields: {
    products: field.array(field.reference('products'), { maxItems: 5 }),
  },
  versions: { v1: {}, v2: {} },
});
`,
      },
      want: [
        {
          rule: 'reference-version',
          severity: 'error',
          message:
            'field "products" refers to "products" in v2, but "products" is served only in v1: its links there would answer 404; serve "products" in v2 too, or give v2 a shape without "products"',
          file: 'definitions/visits.ts',
          line: 5,
          column: 5,
        },
      ],
    },
  ],
  [
    'sortable-field: sortable on a reference and on a nested field, at the option',
    {
      given: {
        'orders.ts': orders,
        'trades.ts': `import { collection, field } from 'DSL';
export default collection({
  name: 'trades',
  fields: {
    order: field.reference('orders', { sortable: true }),
    placed: field.object({ at: field.time({ sortable: true }) }),
  },
  versions: { v1: {} },
});
`,
      },
      want: [
        {
          rule: 'sortable-field',
          severity: 'error',
          message:
            'field "order" is declared sortable, but a reference field cannot order a list: remove sortable, or sort by a string, integer, number, boolean or time field of the collection',
          file: 'definitions/trades.ts',
          line: 5,
          column: 40,
        },
        {
          rule: 'sortable-field',
          severity: 'error',
          message:
            'field "at" is declared sortable, but a nested field cannot order a list: remove sortable, or sort by a string, integer, number, boolean or time field of the collection',
          file: 'definitions/trades.ts',
          line: 6,
          column: 45,
        },
      ],
    },
  ],
  [
    'filterable-field: filterable on a nested object, on a field inside one and on an array item, at the option',
    {
      given: {
        'pets.ts': `import { collection, field } from 'DSL';
export default collection({
  name: 'pets',
  fields: {
    address: field.object({ city: field.string({ filterable: true }) }, { filterable: true }),
    tags: field.array(field.string({ maxLength: 20, filterable: true })),
  },
  versions: { v1: {} },
});
`,
      },
      want: [
        {
          rule: 'filterable-field',
          severity: 'error',
          message:
            'field "address" is declared filterable, but a nested object cannot be compared with a query parameter: remove filterable, or filter by a top-level field of the collection',
          file: 'definitions/pets.ts',
          line: 5,
          column: 5,
        },
        {
          rule: 'filterable-field',
          severity: 'error',
          message:
            'field "city" is declared filterable, but a field inside a nested object is not a filter of the list: remove filterable, or filter by a top-level field of the collection',
          file: 'definitions/pets.ts',
          line: 5,
          column: 50,
        },
        {
          rule: 'filterable-field',
          severity: 'error',
          message:
            'the item of "tags" is declared filterable, but an array\'s item is not a field of its own (declare filterable on the array: ?tags.contains=): remove filterable, or filter by a top-level field of the collection',
          file: 'definitions/pets.ts',
          line: 6,
          column: 53,
        },
      ],
    },
  ],
  [
    'enum-values: a value listed twice, and the empty string, at the values',
    {
      given: {
        'pets.ts': `import { collection, field } from 'DSL';
export default collection({
  name: 'pets',
  fields: {
    species: field.enum(['cat', 'dog', 'cat']),
    size: field.enum(['small', ''] as const, { filterable: true }),
  },
  versions: { v1: {} },
});
`,
      },
      want: [
        {
          rule: 'enum-values',
          severity: 'error',
          message: 'enum field "species" lists "cat" twice: list each value once, none empty',
          file: 'definitions/pets.ts',
          line: 5,
          column: 25,
        },
        {
          rule: 'enum-values',
          severity: 'error',
          message:
            'enum field "size" lists the empty string, which a query string cannot tell from no filter: list each value once, none empty',
          file: 'definitions/pets.ts',
          line: 6,
          column: 22,
        },
      ],
    },
  ],
  [
    'object-depth and object-reference: a fourth nested object, and a reference inside an object, at the field',
    {
      given: {
        'owners.ts': `import { collection, field } from 'DSL';
export default collection({
  name: 'owners',
  fields: {
    a: field.object({ b: field.object({ c: field.object({ d: field.object({ e: field.string() }) }) }) }),
    home: field.object({ pet: field.reference('owners') }),
  },
  versions: { v1: {} },
});
`,
      },
      want: [
        {
          rule: 'object-depth',
          severity: 'error',
          message:
            'nested object "d" is 4 objects deep, but objects nest at most 3 deep: flatten it into its parent, or make it a collection the row refers to',
          file: 'definitions/owners.ts',
          line: 5,
          column: 59,
        },
        {
          rule: 'object-reference',
          severity: 'error',
          message:
            'field "pet" is a reference inside a nested object, where it would be served as a bare identifier: declare it at the top level of the collection',
          file: 'definitions/owners.ts',
          line: 6,
          column: 26,
        },
      ],
    },
  ],
  [
    'duplicate-declaration: two files declare the same collection, reported once at the second',
    {
      given: { 'a-orders.ts': orders, 'b-orders.ts': orders },
      want: [
        {
          rule: 'duplicate-declaration',
          severity: 'error',
          message:
            'collection "orders" is already declared at definitions/a-orders.ts:3:3; one name serves one resource: rename this one or remove it',
          file: 'definitions/b-orders.ts',
          line: 3,
          column: 3,
        },
      ],
    },
  ],
  [
    'reserved-path: a service named docs beside the openapi service',
    {
      given: {
        'docs.ts': `import { service } from 'DSL';
export default service({
  name: 'docs',
  versions: { v1: {} },
  operations: [{ method: 'GET', handle: () => ({ body: {} }) }],
});
`,
        'openapi.ts': `import { openApiService } from 'DSL';
export default openApiService({ name: 'openapi', versions: { v1: {} } });
`,
      },
      want: [
        {
          rule: 'reserved-path',
          severity: 'error',
          message:
            'service "docs" would be served at /services/{version}/docs, where the server serves the docs page of the OpenAPI documents: give it another name',
          file: 'definitions/docs.ts',
          line: 3,
          column: 3,
        },
      ],
    },
  ],
  [
    'version-name',
    {
      given: {
        'orders.ts': `import { collection, field } from 'DSL';
export default collection({
  name: 'orders',
  fields: {},
  versions: { V1: {} },
});
`,
      },
      want: [
        {
          rule: 'version-name',
          severity: 'error',
          message: 'version "V1" is not of the form v1, v2, ...: name it "v1"',
          file: 'definitions/orders.ts',
          line: 5,
          column: 15,
        },
      ],
    },
  ],
  [
    'load-failed: a default export that is not a declaration',
    {
      given: { 'orders.ts': "export default { name: 'orders' };\n" },
      want: [
        {
          rule: 'load-failed',
          severity: 'error',
          message: 'must export default one declaration made with collection(), aggregate(), service() or setting()',
          file: 'definitions/orders.ts',
          line: 1,
          column: 1,
        },
      ],
    },
  ],
  [
    'a helper module (no default export) beside the definitions that import it: nothing to report',
    {
      given: {
        'shared-fields.ts': `import { field } from 'DSL';
/** The item of every kind of order. */
export const item = field.string({ required: true, minLength: 1 });
`,
        'orders.ts': `import { collection } from 'DSL';
import { item } from './shared-fields.ts';
export default collection({ name: 'orders', fields: { item }, versions: { v1: {} } });
`,
      },
      want: [],
    },
  ],
  [
    'a helper module that does not type-check is reported by its type errors',
    {
      given: { 'shared-fields.ts': 'export const limit: number = "ten";\n', 'orders.ts': orders },
      want: [
        {
          rule: 'type-check',
          severity: 'error',
          message: "TS2322: Type 'string' is not assignable to type 'number'.",
          file: 'definitions/shared-fields.ts',
          line: 1,
          column: 14,
        },
      ],
    },
  ],
  [
    'put-create-identifier: PUT cannot create where the server assigns identifiers',
    {
      given: {
        'orders.ts': orders.replace('  versions: { v1: {} },', '  createOnPut: true,\n  versions: { v1: {} },'),
      },
      want: [
        {
          rule: 'put-create-identifier',
          severity: 'error',
          message: `collection "orders" creates on PUT, but the server assigns its identifiers, so no client can know a new one: declare identifier: { assignedBy: 'client' }, or remove createOnPut`,
          file: 'definitions/orders.ts',
          line: 5,
          column: 3,
        },
      ],
    },
  ],
  [
    'put-create-identifier: POST cannot create where clients assign identifiers',
    {
      given: {
        'products.ts': `import { collection, field } from 'DSL';
export default collection({
  name: 'products',
  identifier: { name: 'sku', type: 'string', assignedBy: 'client' },
  createOnPut: true,
  fields: { title: field.string({ required: true }) },
  versions: { v1: {} },
});
`,
      },
      want: [
        {
          rule: 'put-create-identifier',
          severity: 'error',
          message:
            'collection "products" has client-assigned identifiers, so POST cannot create one: declare operations: { create: false } and createOnPut: true',
          file: 'definitions/products.ts',
          line: 4,
          column: 46,
        },
      ],
    },
  ],
  [
    'moved-path: a former name that is served now, and one claimed twice',
    {
      given: {
        'orders.ts': orders.replace('versions: { v1: {} }', "versions: { v1: { movedFrom: ['trades'] } }"),
        'trades.ts': orders.replace("name: 'orders'", "name: 'trades'"),
        'users.ts': orders
          .replace("name: 'orders'", "name: 'users'")
          .replace('versions: { v1: {} }', "versions: { v1: { movedFrom: ['people'] } }"),
        'members.ts': orders
          .replace("name: 'orders'", "name: 'members'")
          .replace('versions: { v1: {} }', "versions: { v1: { movedFrom: ['people'] } }"),
      },
      want: [
        {
          rule: 'moved-path',
          severity: 'error',
          message:
            'former name "trades" of "orders" in v1 is a path "trades" (definitions/trades.ts) serves now: GET /v1/trades cannot both serve and redirect; remove it from movedFrom',
          file: 'definitions/orders.ts',
          line: 5,
          column: 21,
        },
        {
          rule: 'moved-path',
          severity: 'error',
          message:
            'former name "people" of "users" in v1 is also a former name of "members" (definitions/members.ts): a former path redirects to one place; keep it on one of them',
          file: 'definitions/users.ts',
          line: 5,
          column: 21,
        },
      ],
    },
  ],
  [
    'job-produces: a job type produces a declared collection',
    {
      given: {
        'jobs.ts': `import { z } from '${ZOD_IMPORT}';
import { job, jobQueue } from 'DSL';
export default jobQueue({
  name: 'queued/jobs',
  versions: { v1: {} },
  jobs: {
    make: job({ payload: z.object({}), produces: 'widgets', run: () => ({ identity: 1 }) }),
  },
});
`,
      },
      want: [
        {
          rule: 'job-produces',
          severity: 'error',
          message: 'job type "make" produces "widgets", which no definition declares as a collection: name one of none',
          file: 'definitions/jobs.ts',
          line: 7,
          column: 40,
        },
      ],
    },
  ],
  [
    'asynchronous-queue: an undeclared queue',
    {
      given: {
        'orders.ts': orders.replace(
          '  versions: { v1: {} },',
          "  asynchronous: { queue: 'queued/jobs', operations: ['create'] },\n  versions: { v1: {} },",
        ),
      },
      want: [
        {
          rule: 'asynchronous-queue',
          severity: 'error',
          message:
            'collection "orders" queues its asynchronous operations on "queued/jobs", which is not a declared job queue: name one of none (declare a jobQueue)',
          file: 'definitions/orders.ts',
          line: 5,
          column: 19,
        },
      ],
    },
  ],
  [
    'invalid-default: a default the field itself refuses, at the default option (each kind of check)',
    {
      given: {
        'orders.ts': `import { collection, field } from 'DSL';
export default collection({
  name: 'orders',
  fields: {
    item: field.string({ required: true, minLength: 3, default: 'ab' }),
    quantity: field.integer({ min: 1, default: 0 }),
    contact: field.string({ format: 'email', default: 'nobody' }),
    lang: field.languageTag({ default: 'not a tag!' }),
    note: field.string({ required: true, default: 'fine' }),
  },
  versions: { v1: {} },
});
`,
      },
      want: [
        {
          rule: 'invalid-default',
          severity: 'error',
          message:
            'the default of field "item" of collection "orders" is not a value the field accepts: "ab" is not a valid string: Too small: expected string to have >=3 characters; give a default that passes the field\'s own checks',
          file: 'definitions/orders.ts',
          line: 5,
          column: 56,
        },
        {
          rule: 'invalid-default',
          severity: 'error',
          message:
            'the default of field "quantity" of collection "orders" is not a value the field accepts: 0 is not a valid integer: Too small: expected number to be >=1; give a default that passes the field\'s own checks',
          file: 'definitions/orders.ts',
          line: 6,
          column: 39,
        },
        {
          rule: 'invalid-default',
          severity: 'error',
          message:
            'the default of field "contact" of collection "orders" is not a value the field accepts: "nobody" is not a valid string: Invalid email address; give a default that passes the field\'s own checks',
          file: 'definitions/orders.ts',
          line: 7,
          column: 46,
        },
        {
          rule: 'invalid-default',
          severity: 'error',
          message:
            'the default of field "lang" of collection "orders" is not a value the field accepts: "not a tag!" is not a valid string: "not a tag!" is not a well-formed BCP 47 language tag (for example fr-FR); give a default that passes the field\'s own checks',
          file: 'definitions/orders.ts',
          line: 8,
          column: 31,
        },
      ],
    },
  ],
  [
    'indexed-string-length: a declared maxLength above what an index entry holds, on each kind of indexed string, at the maxLength',
    {
      given: {
        'notes.ts': `import { caller, collection, field } from 'DSL';
export default collection({
  name: 'notes',
  fields: {
    title: field.string({ filterable: true, maxLength: 656 }),
    code: field.string({ unique: true, maxLength: 5000 }),
    owner: field.string({ maxLength: 1000 }),
    body: field.string({ maxLength: 1_000_000 }),
    tag: field.string({ filterable: true, maxLength: 655 }),
  },
  rows: { see: { field: 'owner', equals: caller.user } },
  versions: { v1: {} },
});
`,
      },
      want: [
        {
          rule: 'indexed-string-length',
          severity: 'error',
          message:
            'title is indexed (filterable, unique, sortable or compared by a row rule) and declares maxLength 656, more than an index entry holds on PostgreSQL (655 characters): declare maxLength 655 or less, or stop indexing the field',
          file: 'definitions/notes.ts',
          line: 5,
          column: 45,
        },
        {
          rule: 'unique-hidden-rows',
          severity: 'warning',
          message:
            'field "code" of collection "notes" is unique across all its rows, and its rows.see rule hides rows: a caller that writes a value a row it may not see holds is refused with 409 duplicate_value, so it can learn which values hidden rows hold',
          file: 'definitions/notes.ts',
          line: 6,
          column: 26,
        },
        {
          rule: 'indexed-string-length',
          severity: 'error',
          message:
            'code is indexed (filterable, unique, sortable or compared by a row rule) and declares maxLength 5000, more than an index entry holds on PostgreSQL (655 characters): declare maxLength 655 or less, or stop indexing the field',
          file: 'definitions/notes.ts',
          line: 6,
          column: 40,
        },
        {
          rule: 'indexed-string-length',
          severity: 'error',
          message:
            'owner is indexed (filterable, unique, sortable or compared by a row rule) and declares maxLength 1000, more than an index entry holds on PostgreSQL (655 characters): declare maxLength 655 or less, or stop indexing the field',
          file: 'definitions/notes.ts',
          line: 7,
          column: 27,
        },
      ],
    },
  ],
  [
    'search-document-length: searchable strings longer together than a search document, at the longest one (its maxLength when declared, else the field)',
    {
      given: {
        'reports.ts': `import { collection, field } from 'DSL';
export default collection({
  name: 'reports',
  fields: {
    title: field.string({ searchable: true, maxLength: 200 }),
    body: field.string({ searchable: true, maxLength: 99_801 }),
  },
  versions: { v1: {} },
});
`,
        'letters.ts': `import { collection, field } from 'DSL';
export default collection({
  name: 'letters',
  fields: {
    subject: field.string({ searchable: true, maxLength: 200 }),
    text: field.string({ searchable: true, maxLength: 99_800 }),
  },
  versions: { v1: {} },
});
`,
        'memos.ts': `import { collection, field } from 'DSL';
export default collection({
  name: 'memos',
  fields: {
    a: field.string({ searchable: true }), b: field.string({ searchable: true }), c: field.string({ searchable: true }),
    d: field.string({ searchable: true }), e: field.string({ searchable: true }), f: field.string({ searchable: true }),
    g: field.string({ searchable: true }), h: field.string({ searchable: true }), i: field.string({ searchable: true }),
    j: field.string({ searchable: true }), k: field.string({ searchable: true, maxLength: 100 }),
  },
  versions: { v1: {} },
});
`,
      },
      want: [
        {
          rule: 'search-document-length',
          severity: 'error',
          message:
            "the searchable strings of memos hold up to 100100 characters together (a 10000, b 10000, c 10000, d 10000, e 10000, f 10000, g 10000, h 10000, i 10000, j 10000, k 100), more than PostgreSQL's search document takes (100000 characters): declare smaller maxLengths, or stop searching a",
          file: 'definitions/memos.ts',
          line: 5,
          column: 5,
        },
        {
          rule: 'search-document-length',
          severity: 'error',
          message:
            "the searchable strings of reports hold up to 100001 characters together (title 200, body 99801), more than PostgreSQL's search document takes (100000 characters): declare smaller maxLengths, or stop searching body",
          file: 'definitions/reports.ts',
          line: 6,
          column: 44,
        },
      ],
    },
  ],
  [
    'malformed-scope: a scope of a method and of a service operation, at the scope itself',
    {
      given: {
        'orders.ts': `import { collection, field } from 'DSL';
export default collection({
  name: 'orders',
  fields: { item: field.string({ required: true }) },
  scopes: { POST: ['orders:write', 'Orders Write'] },
  versions: { v1: {} },
});
`,
        'time.ts': `import { service } from 'DSL';
export default service({
  name: 'time',
  versions: { v1: {} },
  operations: [{ method: 'GET', scopes: ['time:'], handle: () => ({ body: {} }) }],
});
`,
      },
      want: [
        {
          rule: 'malformed-scope',
          severity: 'error',
          message:
            'scope "Orders Write" of collection "orders" is not a scope name: lowercase words of letters, digits, _ or - joined by ":" (notes:write)',
          file: 'definitions/orders.ts',
          line: 5,
          column: 36,
        },
        {
          rule: 'malformed-scope',
          severity: 'error',
          message:
            'scope "time:" of service "time" is not a scope name: lowercase words of letters, digits, _ or - joined by ":" (notes:write)',
          file: 'definitions/time.ts',
          line: 5,
          column: 42,
        },
      ],
    },
  ],
  [
    'row-rule-field: a row rule on a field the collection does not store, or compared with a value it can never equal, at the field; a malformed scope in a row rule at the scope',
    {
      given: {
        'memos.ts': `import { caller, collection, field } from 'DSL';
export default collection({
  name: 'memos',
  fields: { owner: field.string({ required: true }), level: field.integer(), about: field.reference('memos') },
  rows: {
    see: { any: [{ field: 'owner', equals: caller.user }, { field: 'level', equals: 'high' }, { scope: 'Memos Admin' }] },
    change: { field: 'level', notEquals: caller.user },
  },
  versions: { v1: {} },
});
`,
        // The cast keeps TypeScript's own error out: the rule holds where types do not (a loosened type, JavaScript).
        'pads.ts': `import { caller, collection, field } from 'DSL';
export default collection({
  name: 'pads',
  fields: { owner: field.string({ required: true }) },
  rows: { see: { field: 'ownr' as 'owner', equals: caller.user } },
  versions: { v1: {} },
});
`,
      },
      want: [
        {
          rule: 'row-rule-field',
          severity: 'error',
          message:
            'a row rule of collection "memos" compares field "level" (integer) with "high", which it can never equal; compare it with a value of its own type',
          file: 'definitions/memos.ts',
          line: 6,
          column: 61,
        },
        {
          rule: 'malformed-scope',
          severity: 'error',
          message:
            'scope "Memos Admin" of collection "memos" is not a scope name: lowercase words of letters, digits, _ or - joined by ":" (notes:write)',
          file: 'definitions/memos.ts',
          line: 6,
          column: 97,
        },
        {
          rule: 'row-rule-field',
          severity: 'error',
          message:
            'a row rule of collection "memos" compares field "level" (integer) with caller.user, which it can never equal; compare it with a value of its own type',
          file: 'definitions/memos.ts',
          line: 7,
          column: 15,
        },
        {
          rule: 'row-rule-field',
          severity: 'error',
          message:
            'a row rule of collection "pads" compares field "ownr", which it does not store; name one of its fields (owner)',
          file: 'definitions/pads.ts',
          line: 5,
          column: 18,
        },
      ],
    },
  ],
  [
    'unique-hidden-rows: a unique field of a collection whose see rule hides rows, a warning at its unique; none where no row is hidden',
    {
      given: {
        'loans.ts': `import { caller, collection, field } from 'DSL';
export default collection({
  name: 'loans',
  fields: { borrower: field.string({ required: true }), code: field.string({ maxLength: 20, unique: true }) },
  rows: { see: { field: 'borrower', equals: caller.user } },
  versions: { v1: {} },
});
`,
        // A change rule alone hides no row: every caller sees the value's holder anyway.
        'shelves.ts': `import { caller, collection, field } from 'DSL';
export default collection({
  name: 'shelves',
  fields: { keeper: field.string({ required: true }), code: field.string({ maxLength: 20, unique: true }) },
  rows: { change: { field: 'keeper', equals: caller.user } },
  versions: { v1: {} },
});
`,
      },
      want: [
        {
          rule: 'unique-hidden-rows',
          severity: 'warning',
          message:
            'field "code" of collection "loans" is unique across all its rows, and its rows.see rule hides rows: a caller that writes a value a row it may not see holds is refused with 409 duplicate_value, so it can learn which values hidden rows hold',
          file: 'definitions/loans.ts',
          line: 4,
          column: 93,
        },
      ],
    },
  ],
  [
    'a maxLength that is not a number: its type error alone, and no rule reasoning from it',
    {
      given: {
        'books.ts': `import { collection, field } from 'DSL';
export default collection({
  name: 'books',
  fields: { title: field.string({ filterable: true, searchable: true, maxLength: 'long' }) },
  versions: { v1: {} },
});
`,
      },
      want: [
        {
          rule: 'type-check',
          severity: 'error',
          message: "TS2322: Type 'string' is not assignable to type 'number'.",
          file: 'definitions/books.ts',
          line: 4,
          column: 71,
        },
      ],
    },
  ],
];

describe('lint rules', () => {
  it.each(cases)('%s', async (_name, { given, want }) => {
    const diagnostics = await lintDefinitions(writeDefinitions(given));
    expect(
      diagnostics.map(({ rule, severity, message, file, line, column }) => ({
        rule,
        severity,
        message,
        file,
        line,
        column,
      })),
    ).toEqual(want);
  });

  it('finds nothing wrong in the example API', async () => {
    expect(await lintDefinitions(fileURLToPath(new URL('../../..', import.meta.url)))).toEqual([]);
  });
});

describe('reserved-member-name', () => {
  // Whatever the declaration's own name (which path-segment-case reports), the suggestion passes property-name-case.
  it('suggests a lowercase snake_case name for the field', async () => {
    const diagnostics = await lintDefinitions(
      writeDefinitions({
        'shelves.ts': `import { collection, field } from 'DSL';
export default collection({
  name: 'Book-Shelves',
  singular: 'Book-Shelf',
  fields: { uri: field.string() },
  versions: { v1: {} },
});
`,
      }),
    );
    const reserved = diagnostics.find((diagnostic) => diagnostic.rule === 'reserved-member-name');
    expect(reserved?.message).toMatch(/rename the field \(for example "book_shelf_uri"\)$/);
  });
});
