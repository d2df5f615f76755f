import { describe, expect, it } from 'vitest';
import { ApiError, documentsAt } from '../../../runtime/errors/index.ts';

describe('errors[].document', () => {
  it.each([
    ['https://docs.example/errors/', 'https://docs.example/errors/missing_field'],
    ['https://docs.example/errors#', 'https://docs.example/errors#missing_field'],
    ['https://docs.example/errors/{code}.html', 'https://docs.example/errors/missing_field.html'],
  ])('ERROR_DOCS_URL %s gives %s', (base, want) => {
    expect(documentsAt(base)('missing_field')).toBe(want);
  });

  it('is added to every entry that names no document of its own', () => {
    const error = new ApiError(400, 'missing_field', 'item is required', {
      field: 'item',
      more: [
        { code: 'invalid_value', message: 'quantity', field: 'quantity', document: 'https://elsewhere.example/q' },
      ],
    });
    expect(error.toBody(documentsAt('https://docs.example/e/')).errors).toEqual([
      {
        code: 'missing_field',
        message: 'item is required',
        field: 'item',
        document: 'https://docs.example/e/missing_field',
      },
      { code: 'invalid_value', message: 'quantity', field: 'quantity', document: 'https://elsewhere.example/q' },
    ]);
    expect(error.toBody().errors[0]).not.toHaveProperty('document');
  });
});
