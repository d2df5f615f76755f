import { ApiError } from './api-error.ts';

/** The mark the DSL's refusals carry (its RuleError): a registered symbol, so no import of the DSL is needed. */
const RULE_ERROR = Symbol.for('convapi.rule-error');

interface RefusalLike {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly field?: string;
}

/** Whether `error` is a refusal a business rule threw (the DSL's badRequest, forbidden, conflict...). */
export function isRefusal(error: unknown): error is RefusalLike {
  return typeof error === 'object' && error !== null && (error as { [RULE_ERROR]?: unknown })[RULE_ERROR] === true;
}

/** A rule's refusal as the runtime's error, rendered through the one error renderer; `resource` names the collection. */
export function refusalAsApiError(refusal: RefusalLike, resource?: string): ApiError {
  return new ApiError(refusal.status, refusal.code, refusal.message, {
    ...(refusal.field === undefined ? {} : { field: refusal.field }),
    ...(resource === undefined ? {} : { resource }),
    cause: refusal,
  });
}
