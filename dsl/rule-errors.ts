/**
 * The mark the runtime looks for on a thrown error to render it as the conventions' error body with
 * the status, code, message and field given here. A registered symbol, so the runtime recognises it
 * without importing the DSL (the runtime imports nothing of ours but itself).
 */
const RULE_ERROR = Symbol.for('convapi.rule-error');

/** Where a refusal points: the field it is about (`errors[].field`). */
export interface RefusalOptions {
  readonly field?: string;
}

/**
 * A refusal a rule throws: the request answers `status` with the error body
 * `{message, errors: [{code, message, field, resource}]}` and nothing of the write is kept. Anything
 * else a rule throws is a fault of the server: a logged 500, and nothing is written either.
 */
export class RuleError extends Error {
  readonly status: number;
  /** Key words of the failure, lowercase, joined with underscores (`starts_in_past`). */
  readonly code: string;
  readonly field: string | undefined;
  readonly [RULE_ERROR] = true;

  constructor(status: number, code: string, message: string, { field }: RefusalOptions = {}) {
    super(message);
    if (!Number.isInteger(status) || status < 400 || status > 499)
      throw new TypeError(`a rule refuses with a 4xx status, not ${status}`);
    if (!/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(code))
      throw new TypeError(`error code "${code}" is not lowercase_with_underscores`);
    this.name = 'RuleError';
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

/** Refuses with any 4xx status: `refuse(423, 'room_closed', 'the room is closed for works')`. */
export const refuse = (status: number, code: string, message: string, options?: RefusalOptions) =>
  new RuleError(status, code, message, options);
/** 400: the request is malformed or breaks a rule about its own values (`ends_at` before `starts_at`). */
export const badRequest = (code: string, message: string, options?: RefusalOptions) =>
  new RuleError(400, code, message, options);
/** 403: the caller may not do this. */
export const forbidden = (code: string, message: string, options?: RefusalOptions) =>
  new RuleError(403, code, message, options);
/** 404: something the request names does not exist. */
export const notFound = (code: string, message: string, options?: RefusalOptions) =>
  new RuleError(404, code, message, options);
/** 409: the request conflicts with the current state of the data (the room is already booked then). */
export const conflict = (code: string, message: string, options?: RefusalOptions) =>
  new RuleError(409, code, message, options);
/** 422: well-formed, but cannot be done (a reservation in the past). */
export const unprocessable = (code: string, message: string, options?: RefusalOptions) =>
  new RuleError(422, code, message, options);
