import { describe, expect, it } from 'vitest';
import { lintDefinitions } from '../../../codegen/lint/index.ts';
import { loadDefinitions } from '../../../codegen/load/load-definitions.ts';
import { resolveModel, singularOf } from '../../../codegen/model/index.ts';
import { writeDefinitions } from '../../support/temp-definitions.ts';

describe('resolving defaults', () => {
  it('gives a hyphenated collection a snake_case identifier, which lints clean', async () => {
    const root = writeDefinitions({
      'trade-orders.ts':
        "import { collection, field } from 'DSL';\nexport default collection({ name: 'trade-orders', fields: { note: field.string() }, versions: { v1: {} } });\n",
    });
    const [collection] = resolveModel(await loadDefinitions(root)).collections;
    expect(collection).toMatchObject({
      singular: 'trade-order',
      identifier: { name: 'trade_order_id', type: 'integer' },
      paging: { defaultLimit: 50, maxLimit: 500 },
    });
    expect(await lintDefinitions(root)).toEqual([]);
  });

  it.each([
    ['orders', 'order'],
    ['entries', 'entry'],
    ['addresses', 'address'],
    ['boxes', 'box'],
    ['news', 'news'],
    ['people', 'person'],
    ['book-shelves', 'book-shelf'],
    ['statuses', 'status'],
  ])('singularOf(%s) = %s', (plural, singular) => {
    expect(singularOf(plural)).toBe(singular);
  });
});
