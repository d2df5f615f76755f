import { describe, expect, it } from 'vitest';
import {
  badRequest as ruleBadRequest,
  forbidden as ruleForbidden,
  unprocessable as ruleUnprocessable,
} from '@convapi/dsl';
import { isRefusal, refusalAsApiError } from '../../../runtime/errors/index.ts';

describe("a business rule's refusal, as the runtime renders it", () => {
  it("knows the DSL's refusals by their mark, and nothing else", () => {
    expect(isRefusal(ruleUnprocessable('starts_in_past', 'a reservation cannot start in the past'))).toBe(true);
    expect(isRefusal(ruleForbidden('not_yours', 'only the owner may'))).toBe(true);
    // Lookalikes a rule may throw by mistake are faults (a logged 500), not refusals.
    for (const other of [
      new Error('plain'),
      { status: 422, code: 'looks_like_one', message: 'but is not' },
      { [Symbol.for('convapi.rule-error')]: 'true', status: 422, code: 'x', message: 'y' },
      { [Symbol.for('convapi.rule-error')]: 1, status: 422, code: 'x', message: 'y' },
      null,
      undefined,
      'refused',
      422,
    ])
      expect(isRefusal(other), String(other)).toBe(false);
  });

  it('keeps its status, code, message and field, names the collection, and keeps the refusal as the cause', () => {
    const refusal = ruleUnprocessable('starts_in_past', 'a reservation cannot start in the past', {
      field: 'starts_at',
    });
    const error = refusalAsApiError(refusal, 'reservations');
    expect(error.status).toBe(422);
    expect(error.toBody()).toEqual({
      message: 'Unprocessable Entity',
      errors: [
        {
          code: 'starts_in_past',
          message: 'a reservation cannot start in the past',
          resource: 'reservations',
          field: 'starts_at',
        },
      ],
    });
    expect(error.cause).toBe(refusal);
  });

  it('without a field or a collection, the entry has neither', () => {
    const error = refusalAsApiError(ruleBadRequest('ends_before_start', 'a reservation ends after it starts'));
    expect(error.status).toBe(400);
    expect(error.toBody().errors).toEqual([
      { code: 'ends_before_start', message: 'a reservation ends after it starts' },
    ]);
    expect(Object.keys(error.toBody().errors[0]!)).toEqual(['code', 'message']);
  });
});
